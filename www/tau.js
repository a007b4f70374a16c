// A short airline run written for this page in tau-bench's own format (a
// task id, its reward and the OpenAI-style chat messages with tool calls),
// invented in the style of the recorded runs, not copied from them; and
// the few lines that turn such a run into reins events for the page.

export const TAU_RUN = {
  task_id: 7,
  reward: 1,
  traj: [
    { role: "system", content: "# Airline Agent Policy\nYou are an airline agent. Before any change, confirm it with the user." },
    { role: "user", content: "Hi! I need to move my flight to a day later." },
    { role: "assistant", content: "I can help with that. Could you give me your user ID and the reservation ID?" },
    { role: "user", content: "My user id is mei_tanaka_4410. I don't remember the reservation number." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_user_details", arguments: '{"user_id": "mei_tanaka_4410"}' } }] },
    { role: "tool", tool_call_id: "call_1", name: "get_user_details", content: '{"name": {"first_name": "Mei", "last_name": "Tanaka"}, "membership": "gold", "payment_methods": {"credit_card_5521": {"brand": "visa", "last_four": "5521"}}, "reservations": ["K7Q2LM", "D4WX8N"]}' },
    { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "get_reservation_details", arguments: '{"reservation_id": "K7Q2LM"}' } }] },
    { role: "tool", tool_call_id: "call_2", name: "get_reservation_details", content: '{"reservation_id": "K7Q2LM", "origin": "SEA", "destination": "DEN", "flight_type": "one_way", "cabin": "economy", "flights": [{"flight_number": "HAT214", "date": "2024-05-17", "price": 142}], "passengers": 1}' },
    { role: "assistant", content: "I found reservation K7Q2LM: Seattle to Denver on May 17, flight HAT214, economy. Is this the one you'd like to move to May 18?" },
    { role: "user", content: "Yes, that one. Same cabin please, the cheapest nonstop." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_3", type: "function", function: { name: "search_direct_flight", arguments: '{"origin": "SEA", "destination": "DEN", "date": "2024-05-18"}' } }] },
    { role: "tool", tool_call_id: "call_3", name: "search_direct_flight", content: '[{"flight_number": "HAT077", "departure": "07:10", "prices": {"economy": 158}}, {"flight_number": "HAT214", "departure": "13:40", "prices": {"economy": 149}}]' },
    { role: "assistant", content: null, tool_calls: [{ id: "call_4", type: "function", function: { name: "calculate", arguments: '{"expression": "149 - 142"}' } }] },
    { role: "tool", tool_call_id: "call_4", name: "calculate", content: "7.0" },
    { role: "assistant", content: "The cheapest nonstop on May 18 is HAT214 at 13:40 for $149, $7 more than your current fare. Shall I change it and charge the $7 to your Visa ending 5521?" },
    { role: "user", content: "Yes, please go ahead." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_5", type: "function", function: { name: "update_reservation_flights", arguments: '{"reservation_id": "K7Q2LM", "cabin": "economy", "flights": [{"flight_number": "HAT214", "date": "2024-05-18"}], "payment_id": "credit_card_5521"}' } }] },
    { role: "tool", tool_call_id: "call_5", name: "update_reservation_flights", content: '{"reservation_id": "K7Q2LM", "flights": [{"flight_number": "HAT214", "date": "2024-05-18", "price": 149}], "payment_history": [{"payment_id": "credit_card_5521", "amount": 142}, {"payment_id": "credit_card_5521", "amount": 7}]}' },
    { role: "assistant", content: "Done: K7Q2LM now flies SEA to DEN on May 18 on HAT214 at 13:40, and $7 was charged to your Visa ending 5521." },
    { role: "user", content: "Thank you so much, that's all! ###STOP###" },
  ],
};

/**
 * The run's messages as reins events, one step each: a user message starts a
 * turn, each tool call and result is an event, an answer completes the turn.
 * tau-bench keeps no times: the agent's messages are a second apart, the
 * user's twenty. A tool result starting "Error" failed, as in tau-bench.
 */
export function fromTau(run) {
  const steps = [];
  let at = 0;
  for (const m of run.traj) {
    if (m.role === "user") {
      at += 20_000;
      steps.push({ event: { type: "turnStart", message: m.content.replace("###STOP###", "").trim(), atMs: at } });
      continue;
    }
    at += 1000;
    if (m.role === "assistant") {
      for (const c of m.tool_calls ?? []) {
        steps.push({ event: { type: "toolCall", name: c.function.name, args: JSON.parse(c.function.arguments), callId: c.id, atMs: at } });
      }
      if (m.content) steps.push({ event: { type: "turnComplete", response: m.content, atMs: at } });
    } else if (m.role === "tool") {
      const failed = m.content.startsWith("Error");
      steps.push({ event: { type: "toolResult", name: m.name, ok: !failed, callId: m.tool_call_id, atMs: at, ...(failed ? { error: m.content } : { result: m.content }) } });
    }
  }
  return steps;
}

/** `steps` with `extra` merged into the step whose event matches `where`. */
export function annotate(steps, where, extra) {
  const i = steps.findIndex((s) => Object.entries(where).every(([k, v]) => s.event[k] === v));
  if (i < 0) throw new Error(`no step matches ${JSON.stringify(where)}`);
  steps[i] = { ...steps[i], ...extra };
  return steps;
}

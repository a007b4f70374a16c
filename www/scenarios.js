// Scripted scenarios for the live demo page, as data. Each step's event goes
// to `Regulator.event()` unchanged except `atMs`, which is relative to the
// scenario start: the page (and tests/node/demo.test.mjs) adds T0 to it.
// `expect` is `decide().kind` right after that step's event.
import { TAU_RUN, annotate, fromTau } from "./tau.js";

export const T0 = 1_732_000_000_000;

export const SCENARIOS = [
  {
    id: "runaway-loop",
    title: "A runaway tool loop",
    summary:
      "The agent keeps asking the carrier for the same parcel's tracking and gets the same answer every time. " +
      "Watch reins warn the agent at the third identical call and halt it at the fifth.",
    options: {},
    steps: [
      { event: { type: "turnStart", message: "Where is my parcel? Order 4821, it was due on Monday.", atMs: 0 } },
      { event: { type: "toolCall", name: "get_tracking", args: { order_id: "4821" }, callId: "t1", atMs: 900 } },
      {
        event: { type: "toolResult", name: "get_tracking", ok: true, durationMs: 240, callId: "t1", atMs: 1140,
          result: '{"order_id":"4821","carrier":"UPS","status":"in_transit","last_scan":"Memphis, TN"}' },
        expect: "continue",
        note: "One lookup: nothing to say.",
      },
      { event: { type: "toolCall", name: "get_tracking", args: { order_id: "4821" }, callId: "t2", atMs: 1800 } },
      {
        event: { type: "toolResult", name: "get_tracking", ok: true, durationMs: 230, callId: "t2", atMs: 2030,
          result: '{"order_id":"4821","carrier":"UPS","status":"in_transit","last_scan":"Memphis, TN"}' },
        expect: "continue",
      },
      { event: { type: "toolCall", name: "get_tracking", args: { order_id: "4821" }, callId: "t3", atMs: 2700 } },
      {
        event: { type: "toolResult", name: "get_tracking", ok: true, durationMs: 250, callId: "t3", atMs: 2950,
          result: '{"order_id":"4821","carrier":"UPS","status":"in_transit","last_scan":"Memphis, TN"}' },
        expect: "toolNudge",
        note: "Third identical call, identical answer: a nudge the app can pass to the agent.",
      },
      { event: { type: "toolCall", name: "get_tracking", args: { order_id: "4821" }, callId: "t4", atMs: 3600 } },
      {
        event: { type: "toolResult", name: "get_tracking", ok: true, durationMs: 240, callId: "t4", atMs: 3840,
          result: '{"order_id":"4821","carrier":"UPS","status":"in_transit","last_scan":"Memphis, TN"}' },
        expect: "toolNudge",
      },
      { event: { type: "toolCall", name: "get_tracking", args: { order_id: "4821" }, callId: "t5", atMs: 4500 } },
      {
        event: { type: "toolResult", name: "get_tracking", ok: true, durationMs: 260, callId: "t5", atMs: 4760,
          result: '{"order_id":"4821","carrier":"UPS","status":"in_transit","last_scan":"Memphis, TN"}' },
        expect: "circuitBreak",
        expectReason: "toolLoop",
        note: "The agent ignored the nudge: reins halts the loop before it burns more calls.",
      },
    ],
  },

  {
    id: "tweaked-retries",
    title: "Retries that find nothing",
    summary:
      "Nothing matches the user's search, so the agent retries with slightly different dates and prices, and gets an " +
      "empty list every time. Watch reins treat the retries as one loop: a nudge at the third empty search, a halt at the fifth.",
    options: {},
    steps: [
      { event: { type: "turnStart", message: "Find me a nonstop from SFO to JFK on Dec 14, under $250.", atMs: 0 } },
      { event: { type: "toolCall", name: "search_flights", args: { from: "SFO", to: "JFK", date: "2024-12-14", max_price: 250, nonstop: true }, callId: "s1", atMs: 1000 } },
      { event: { type: "toolResult", name: "search_flights", ok: true, durationMs: 410, result: "[]", callId: "s1", atMs: 1410 }, expect: "continue" },
      { event: { type: "toolCall", name: "search_flights", args: { from: "SFO", to: "JFK", date: "2024-12-14", max_price: 300, nonstop: true }, callId: "s2", atMs: 2100 } },
      { event: { type: "toolResult", name: "search_flights", ok: true, durationMs: 390, result: "[]", callId: "s2", atMs: 2490 }, expect: "continue" },
      { event: { type: "toolCall", name: "search_flights", args: { from: "SFO", to: "JFK", date: "2024-12-15", max_price: 300, nonstop: true }, callId: "s3", atMs: 3200 } },
      {
        event: { type: "toolResult", name: "search_flights", ok: true, durationMs: 400, result: "[]", callId: "s3", atMs: 3600 },
        expect: "toolNudge",
        note: "Different arguments, same nothing: three empty searches in a row earn a nudge.",
      },
      { event: { type: "toolCall", name: "search_flights", args: { from: "SFO", to: "EWR", date: "2024-12-14", max_price: 300, nonstop: true }, callId: "s4", atMs: 4300 } },
      { event: { type: "toolResult", name: "search_flights", ok: true, durationMs: 380, result: "[]", callId: "s4", atMs: 4680 }, expect: "toolNudge" },
      { event: { type: "toolCall", name: "search_flights", args: { from: "SFO", to: "JFK", date: "2024-12-14", max_price: 400, nonstop: true }, callId: "s5", atMs: 5400 } },
      {
        event: { type: "toolResult", name: "search_flights", ok: true, durationMs: 420, result: "[]", callId: "s5", atMs: 5820 },
        expect: "circuitBreak",
        expectReason: "toolLoop",
        note: "Five searches that learned nothing: halted. Better to tell the user nothing matches.",
      },
    ],
  },

  {
    id: "healthy-fan-out",
    title: "A healthy fan-out",
    summary:
      "The agent looks up all five of the user's reservations in one parallel batch, the same tool five times with different ids. " +
      "Watch reins leave it alone: a batch is one step of work, not a loop.",
    options: {},
    steps: [
      { event: { type: "turnStart", message: "Which of my bookings can I still cancel for free? My user id is lena_ortiz_2231.", atMs: 0 } },
      { event: { type: "toolCall", name: "get_user_details", args: { user_id: "lena_ortiz_2231" }, callId: "u1", atMs: 800 } },
      {
        event: { type: "toolResult", name: "get_user_details", ok: true, durationMs: 120, callId: "u1", atMs: 920,
          result: '{"user_id":"lena_ortiz_2231","membership":"silver","reservations":["QX71BD","M2ZK9P","TR8W4C","B5NL0E","HY3JQ6"]}' },
        expect: "continue",
      },
      { event: { type: "toolCall", name: "get_reservation_details", args: { reservation_id: "QX71BD" }, callId: "r1", atMs: 1700 } },
      { event: { type: "toolCall", name: "get_reservation_details", args: { reservation_id: "M2ZK9P" }, callId: "r2", atMs: 1700 } },
      { event: { type: "toolCall", name: "get_reservation_details", args: { reservation_id: "TR8W4C" }, callId: "r3", atMs: 1700 } },
      { event: { type: "toolCall", name: "get_reservation_details", args: { reservation_id: "B5NL0E" }, callId: "r4", atMs: 1700 } },
      {
        event: { type: "toolCall", name: "get_reservation_details", args: { reservation_id: "HY3JQ6" }, callId: "r5", atMs: 1700 },
        expect: "continue",
        note: "Five calls to the same tool at once, each for a different reservation.",
      },
      { event: { type: "toolResult", name: "get_reservation_details", ok: true, durationMs: 140, callId: "r1", atMs: 1840,
        result: '{"reservation_id":"QX71BD","origin":"BOS","destination":"ORD","date":"2024-12-20","cabin":"economy","insurance":"no","created_at":"2024-11-18T09:12:00"}' } },
      { event: { type: "toolResult", name: "get_reservation_details", ok: true, durationMs: 150, callId: "r2", atMs: 1850,
        result: '{"reservation_id":"M2ZK9P","origin":"ORD","destination":"BOS","date":"2024-12-27","cabin":"economy","insurance":"no","created_at":"2024-11-18T09:14:00"}' } },
      { event: { type: "toolResult", name: "get_reservation_details", ok: true, durationMs: 160, callId: "r3", atMs: 1860,
        result: '{"reservation_id":"TR8W4C","origin":"BOS","destination":"MIA","date":"2025-01-09","cabin":"business","insurance":"yes","created_at":"2024-10-02T16:40:00"}' } },
      { event: { type: "toolResult", name: "get_reservation_details", ok: true, durationMs: 170, callId: "r4", atMs: 1870,
        result: '{"reservation_id":"B5NL0E","origin":"MIA","destination":"BOS","date":"2025-01-16","cabin":"business","insurance":"yes","created_at":"2024-10-02T16:41:00"}' } },
      {
        event: { type: "toolResult", name: "get_reservation_details", ok: true, durationMs: 180, callId: "r5", atMs: 1880,
          result: '{"reservation_id":"HY3JQ6","origin":"BOS","destination":"SEA","date":"2024-12-02","cabin":"basic_economy","insurance":"no","created_at":"2024-09-30T11:05:00"}' },
        expect: "continue",
        note: "The batch is in and judged as one step: no nudge, no halt.",
      },
      {
        event: { type: "turnComplete", atMs: 3600,
          response: "You can cancel TR8W4C and B5NL0E (Miami, business class, insured) for free. QX71BD and M2ZK9P were booked " +
            "more than 24 hours ago without insurance, and HY3JQ6 is basic economy, so those three can't be refunded." },
        expect: "continue",
      },
      { event: { type: "cost", tokensIn: 2600, tokensOut: 180, wallclockMs: 3600 }, expect: "continue" },
    ],
  },

  {
    id: "scope-drift",
    title: "An over-helpful refactor",
    summary:
      "Asked for a small refactor, the agent also adds logging and telemetry nobody asked for. Watch reins flag the drift " +
      "and list the added words; the next answer is long but stays on the question, and reins lets it through.",
    options: {},
    steps: [
      { event: { type: "turnStart", message: "Refactor load_settings() to use pathlib instead of os.path. Nothing else.", atMs: 0 }, expect: "continue" },
      {
        event: { type: "turnComplete", atMs: 4200,
          response: "Done: load_settings() now builds its paths with pathlib.Path and reads the file with Path.read_text(). " +
            "I also added structured logging around each file read, OpenTelemetry spans so you can trace config loading, " +
            "and a metrics counter for cache misses." },
        expect: "scopeDrift",
        note: "Logging, tracing and metrics were never asked for: the drift lists those words.",
      },
      { event: { type: "cost", tokensIn: 850, tokensOut: 420, wallclockMs: 4200 } },
      { event: { type: "turnStart", message: "Why is Path.read_text() better than open() here?", atMs: 60_000 }, expect: "continue" },
      {
        event: { type: "turnComplete", atMs: 66_000,
          response: "Path.read_text() opens the file, reads it and closes it in one call, so there is no file handle to leak " +
            "if parsing raises. It also keeps the whole function in pathlib: the path is built, checked with exists() and read " +
            "through one Path object, instead of passing strings between os.path.join and open(). The one thing to watch is the " +
            "encoding: open() and read_text() both default to the locale's encoding, so pass encoding=\"utf-8\" to read_text() " +
            "to get the same result on every machine. For a settings file of a few kilobytes, reading it whole is fine." },
        expect: "continue",
        note: "Long, but every part answers the question: no drift.",
      },
      { event: { type: "cost", tokensIn: 1400, tokensOut: 260, wallclockMs: 6000 } },
    ],
  },

  {
    id: "cost-spiral",
    title: "Spending more for worse answers",
    summary:
      "Each rewrite of a report costs more tokens than the last while the user's ratings keep falling. " +
      "Watch reins let the spend pass the 6,000-token cap while the answers are still rated well, and halt as soon as they are not.",
    options: { costCapTokens: 6000 },
    steps: [
      { event: { type: "turnStart", message: "Summarise the Q3 incident report for the board, one page.", atMs: 0 } },
      { event: { type: "turnComplete", response: "Q3 had four incidents; the longest was a 3-hour checkout outage on Aug 14, caused by an expired certificate.", atMs: 5000 } },
      { event: { type: "cost", tokensIn: 3000, tokensOut: 700, wallclockMs: 5000 } },
      { event: { type: "qualityFeedback", quality: 0.8 }, expect: "continue", note: "700 of 6,000 output tokens spent, rated 0.8." },
      { event: { type: "turnStart", message: "Good. Add the customer impact of each incident.", atMs: 60_000 } },
      { event: { type: "turnComplete", response: "Customer impact: the checkout outage blocked about 12,000 orders; the other three incidents were minor.", atMs: 68_000 } },
      { event: { type: "cost", tokensIn: 3800, tokensOut: 1300, wallclockMs: 8000 } },
      { event: { type: "qualityFeedback", quality: 0.65 }, expect: "continue" },
      { event: { type: "turnStart", message: "Give numbers for the other three incidents as well.", atMs: 120_000 } },
      { event: { type: "turnComplete", response: "The payment delay on Jul 3 held up 1,900 orders, the search slowdown on Aug 30 hit about 40,000 sessions, and the email backlog on Sep 12 delayed 6,500 receipts. Timelines and root causes for all four incidents follow.", atMs: 133_000 } },
      { event: { type: "cost", tokensIn: 5200, tokensOut: 2100, wallclockMs: 13000 } },
      { event: { type: "qualityFeedback", quality: 0.45 }, expect: "continue", note: "Ratings are falling, but their average is still fair." },
      { event: { type: "turnStart", message: "Shorter please, it has to fit on one page.", atMs: 180_000 } },
      { event: { type: "turnComplete", response: "Here is the full report again, now with an appendix of monitoring graphs and a glossary.", atMs: 198_000 } },
      {
        event: { type: "cost", tokensIn: 7400, tokensOut: 3200, wallclockMs: 18000 },
        expect: "continue",
        note: "7,300 tokens: over the cap, but the recent answers were rated fair, so reins lets this one be graded.",
      },
      {
        event: { type: "qualityFeedback", quality: 0.3 },
        expect: "circuitBreak",
        expectReason: "costCap",
        note: "Over budget and the recent ratings are now poor: halted. The decline is listed as a second concern.",
      },
    ],
  },

  {
    id: "repeated-corrections",
    title: "The same correction, three requests running",
    summary:
      "The user says \"we use pnpm, not npm\" while adding zod, again while adding vitest, and again when the agent runs npx. " +
      "Watch reins learn that as a standing rule and put it in front of the next, unrelated request, before the agent can get it wrong a fourth time.",
    options: {},
    steps: [
      { event: { type: "turnStart", message: "add zod to the project", atMs: 0 }, expect: "continue" },
      { event: { type: "turnComplete", response: "Installed zod with npm install zod.", atMs: 3000 } },
      { event: { type: "turnStart", message: "we use pnpm here, not npm. redo it", atMs: 20_000 }, note: "First correction, filed under the zod request." },
      { event: { type: "turnComplete", response: "Done: reverted package-lock.json and ran pnpm add zod.", atMs: 24_000 } },
      { event: { type: "turnStart", message: "now add vitest", atMs: 300_000 } },
      { event: { type: "turnComplete", response: "Installed vitest with npm install -D vitest.", atMs: 304_000 } },
      { event: { type: "turnStart", message: "pnpm again please, not npm", atMs: 320_000 }, note: "Second correction, on another request." },
      { event: { type: "turnComplete", response: "Reinstalled vitest with pnpm add -D vitest.", atMs: 324_000 } },
      { event: { type: "turnStart", message: "write a test for slugify and run it", atMs: 600_000 } },
      { event: { type: "turnComplete", response: "Added slugify.test.ts; npx vitest run passes.", atMs: 610_000 } },
      {
        event: { type: "turnStart", message: "it's pnpm exec vitest here, not npx", atMs: 630_000 },
        expect: "continue",
        expectInjected: "pnpm",
        note: "Third correction on a third request: reins now holds \"pnpm\" as a learned rule.",
      },
      { event: { type: "turnComplete", response: "Ran pnpm exec vitest: 1 passed.", atMs: 636_000 } },
      {
        event: { type: "turnStart", message: "add eslint with the recommended config", atMs: 900_000 },
        expect: "continue",
        expectInjected: "we use pnpm here, not npm",
        note: "A new request: the decision is continue, but injectCorrections() puts the pnpm rule, with the user's own words, in front of the prompt.",
      },
      { event: { type: "turnComplete", response: "Ran pnpm add -D eslint @eslint/js and added eslint.config.js with the recommended rules.", atMs: 908_000 }, expect: "continue" },
    ],
  },

  {
    id: "frustrated-user-zh",
    title: "A frustrated user, in Chinese",
    summary:
      "A user asks, in Chinese, for a function to be made async; the fix doesn't work, and they say so twice, more bluntly the second time. " +
      "Watch reins raise an incident at the second pushback, so a person can step in.",
    options: {},
    steps: [
      { event: { type: "turnStart", message: "帮我把 fetch_user 改成异步函数", atMs: 0 }, expect: "continue" },
      { event: { type: "turnComplete", response: "已经改好了：fetch_user 现在是 async 函数，内部用 await 调用数据库。", atMs: 4000 }, expect: "continue" },
      { event: { type: "cost", tokensIn: 600, tokensOut: 220, wallclockMs: 4000 } },
      {
        event: { type: "turnStart", message: "还是不行，运行的时候报错了", atMs: 40_000 },
        expect: "continue",
        note: "\"还是不行\" (still doesn't work): one pushback is not yet a pattern.",
      },
      { event: { type: "turnComplete", response: "抱歉，调用的地方也需要改。我已经把 get_profile 里的调用改成 await fetch_user(id)。", atMs: 45_000 } },
      { event: { type: "cost", tokensIn: 900, tokensOut: 260, wallclockMs: 5000 } },
      {
        event: { type: "turnStart", message: "错了，你根本没改对，还是同样的错误", atMs: 90_000 },
        expect: "incident",
        note: "\"错了\" (wrong), \"还是同样的错误\" (still the same error): the second pushback on one task is an incident.",
      },
      { event: { type: "turnComplete", response: "非常抱歉。问题在于 main 里没有用 asyncio.run 启动事件循环，我已经改好了。", atMs: 96_000 }, expect: "incident" },
      { event: { type: "cost", tokensIn: 1300, tokensOut: 240, wallclockMs: 6000 }, expect: "incident" },
    ],
  },

  {
    id: "airline-change",
    title: "Real work, left alone",
    summary:
      "A replay of an airline run in tau-bench's own format (written for this page in the style of the recorded runs): the user changes a flight, and the agent looks up the user, " +
      "the reservation and the flights, then makes the change. Watch reins stay quiet: healthy work is not interrupted.",
    options: {},
    // tau.js: the run in tau-bench's format, turned into events.
    steps: annotate(
      annotate(
        annotate(fromTau(TAU_RUN), { type: "toolResult", callId: "call_1" }, { expect: "continue" }),
        { type: "toolResult", callId: "call_5" },
        { expect: "continue", note: "A booking change that went through once: an action, not a loop." },
      ),
      { type: "turnStart", message: "Thank you so much, that's all!" },
      { expect: "continue" },
    ),
  },
];

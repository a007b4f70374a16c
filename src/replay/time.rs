//! Times in recorded runs: ISO 8601 date-times, and setting an event's time.

use crate::event::Event;

/// Milliseconds since the epoch of an ISO 8601 date-time
/// (`2025-11-26T01:12:47.792373`, optional `Z` or `±hh:mm`; UTC when none);
/// none before 1970 or past 2^53 − 1.
pub fn iso_ms(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = s.get(from..from + len)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b' ') {
        return None;
    }
    let (y, mo, d) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (h, mi, sec) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut rest = &s[19..];
    let mut ms = 0i64;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        let first3: String = frac[..digits]
            .chars()
            .chain("000".chars())
            .take(3)
            .collect();
        ms = first3.parse().ok()?;
        rest = &frac[digits..];
    }
    let offset_min = match rest {
        "" | "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let t = rest[1..].replace(':', "");
            if t.len() != 4 || !t.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            sign * (t[..2].parse::<i64>().ok()? * 60 + t[2..].parse::<i64>().ok()?)
        }
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let total = ((days * 24 + h) * 60 + mi - offset_min) * 60 + sec;
    u64::try_from(total * 1000 + ms)
        .ok()
        .filter(|&m| m <= crate::config::MAX_SAFE_INT)
}

/// Sets the time of an event that carries one of the four timed kinds.
pub fn set_time(event: &mut Event, t: Option<u64>) {
    match event {
        Event::TurnStart { at_ms, .. }
        | Event::TurnComplete { at_ms, .. }
        | Event::ToolCall { at_ms, .. }
        | Event::ToolResult { at_ms, .. } => *at_ms = t,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times() {
        assert_eq!(iso_ms("2000-03-01T00:00:00.5Z"), Some(951_868_800_500));
        assert_eq!(iso_ms("2000-03-01T02:00:00+02:00"), Some(951_868_800_000));
        assert_eq!(iso_ms("1969-12-31T23:59:59Z"), None);
        assert_eq!(iso_ms("1970-01-01T00:00:00"), Some(0));
        assert_eq!(
            iso_ms("2025-11-26T01:12:47.792373"),
            Some(1_764_119_567_792)
        );
        assert_eq!(
            iso_ms("2025-11-26T02:12:47.5+01:00"),
            Some(1_764_119_567_500)
        );
        assert_eq!(iso_ms("2024-02-29T12:00:00Z"), Some(1_709_208_000_000));
        assert_eq!(iso_ms("2025-13-01T00:00:00"), None);
        assert_eq!(iso_ms("yesterday"), None);
    }
}

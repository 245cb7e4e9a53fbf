//! Turning literal bytes into Go values: strings (decode.go `unquoteBytes`,
//! `getu4`) and the strconv parses behind numbers.

/// unicode/utf8 `DecodeRune`: the rune at the start of `b` and its length;
/// an invalid or truncated sequence is one U+FFFD for its first byte only,
/// so each bad byte becomes its own replacement character (unlike Rust's
/// `from_utf8_lossy`, which replaces a maximal bad prefix once).
pub fn decode_rune(b: &[u8]) -> (char, usize) {
    let Some(&lead) = b.first() else {
        return ('\u{fffd}', 0);
    };
    let (len, lo, hi) = match lead {
        0x00..=0x7f => return (char::from(lead), 1),
        0xc2..=0xdf => (2, 0x80, 0xbf),
        0xe0 => (3, 0xa0, 0xbf),
        0xed => (3, 0x80, 0x9f),
        0xe1..=0xef => (3, 0x80, 0xbf),
        0xf0 => (4, 0x90, 0xbf),
        0xf4 => (4, 0x80, 0x8f),
        0xf1..=0xf3 => (4, 0x80, 0xbf),
        _ => return ('\u{fffd}', 1),
    };
    if b.len() < len || !(lo..=hi).contains(&b[1]) || !b[2..len].iter().all(|&c| (0x80..=0xbf).contains(&c)) {
        return ('\u{fffd}', 1);
    }
    match std::str::from_utf8(&b[..len]).ok().and_then(|s| s.chars().next()) {
        Some(c) => (c, len),
        None => ('\u{fffd}', 1),
    }
}

/// decode.go `getu4`: the four hex digits after `\u` at the start of `s`.
fn getu4(s: &[u8]) -> Option<u32> {
    if s.len() < 6 || s[0] != b'\\' || s[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&s[2..6]).ok()?;
    u32::from_str_radix(hex, 16).ok()
}

/// decode.go `unquoteBytes`: the Go string a (syntax-checked) JSON string
/// literal, quotes included, decodes to. Escapes are resolved; a `\u`
/// surrogate pair joins into one rune and a surrogate that does not pair
/// becomes U+FFFD; every invalid UTF-8 byte becomes U+FFFD. `None` only for
/// input the scanner would have rejected.
pub fn unquote(item: &[u8]) -> Option<String> {
    if item.len() < 2 || item[0] != b'"' || item[item.len() - 1] != b'"' {
        return None;
    }
    let s = &item[1..item.len() - 1];
    let mut out = String::with_capacity(s.len());
    let mut r = 0;
    while r < s.len() {
        let c = s[r];
        if c == b'\\' {
            let esc = *s.get(r + 1)?;
            let simple = match esc {
                b'"' => Some('"'),
                b'\\' => Some('\\'),
                b'/' => Some('/'),
                b'\'' => Some('\''),
                b'b' => Some('\u{8}'),
                b'f' => Some('\u{c}'),
                b'n' => Some('\n'),
                b'r' => Some('\r'),
                b't' => Some('\t'),
                b'u' => None,
                _ => return None,
            };
            if let Some(ch) = simple {
                out.push(ch);
                r += 2;
                continue;
            }
            let first = getu4(&s[r..])?;
            r += 6;
            if (0xd800..0xe000).contains(&first) {
                // utf16.DecodeRune: only a high surrogate followed by a low one.
                if let Some(second) = getu4(&s[r..])
                    && (0xd800..0xdc00).contains(&first)
                    && (0xdc00..0xe000).contains(&second)
                {
                    let joined = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                    out.push(char::from_u32(joined).unwrap_or('\u{fffd}'));
                    r += 6;
                    continue;
                }
                out.push('\u{fffd}');
                continue;
            }
            out.push(char::from_u32(first).unwrap_or('\u{fffd}'));
        } else if c == b'"' || c < b' ' {
            return None;
        } else {
            let (ch, n) = decode_rune(&s[r..]);
            out.push(ch);
            r += n.max(1);
        }
    }
    Some(out)
}

/// strconv `ParseInt(s, 10, 64)` restricted to `bits` (decode.go's
/// `OverflowInt` check); `None` is the UnmarshalTypeError.
pub fn parse_int(s: &str, bits: u8) -> Option<i64> {
    if !s.bytes().all(|c| c.is_ascii_digit() || c == b'-') {
        return None;
    }
    let n: i64 = s.parse().ok()?;
    let bits = if bits == 0 { 64 } else { u32::from(bits) };
    if bits < 64 {
        let limit = 1i64 << (bits - 1);
        if n < -limit || n >= limit {
            return None;
        }
    }
    Some(n)
}

/// strconv `ParseUint(s, 10, 64)` restricted to `bits`; no sign allowed,
/// not even `-0`.
pub fn parse_uint(s: &str, bits: u8) -> Option<u64> {
    if !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: u64 = s.parse().ok()?;
    let bits = if bits == 0 { 64 } else { u32::from(bits) };
    if bits < 64 && n >> bits != 0 {
        return None;
    }
    Some(n)
}

/// strconv `ParseFloat(s, bits)`: correctly rounded; out of range (the
/// result would be infinite) is an error, underflow is a (signed) zero.
/// A float32 comes back widened exactly.
pub fn parse_float(s: &str, bits: u8) -> Option<f64> {
    let f = if bits == 32 { f64::from(s.parse::<f32>().ok()?) } else { s.parse::<f64>().ok()? };
    f.is_finite().then_some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_surrogates() {
        assert_eq!(unquote(br#""a\n\"\/\u00e9""#).as_deref(), Some("a\n\"/é"));
        assert_eq!(unquote(br#""\ud83d\ude00""#).as_deref(), Some("😀"));
        assert_eq!(unquote(br#""\ud83dx""#).as_deref(), Some("\u{fffd}x"));
        assert_eq!(unquote(br#""\ude00""#).as_deref(), Some("\u{fffd}"));
        assert_eq!(unquote(br#""\ud800\ud800""#).as_deref(), Some("\u{fffd}\u{fffd}"));
        assert_eq!(unquote(br#""\ud800\u0041""#).as_deref(), Some("\u{fffd}A"));
    }

    #[test]
    fn each_invalid_byte_is_one_replacement() {
        assert_eq!(unquote(b"\"\xe2\x82x\"").as_deref(), Some("\u{fffd}\u{fffd}x"));
        assert_eq!(unquote(b"\"\xed\xa0\x80\"").as_deref(), Some("\u{fffd}\u{fffd}\u{fffd}"));
        assert_eq!(unquote(b"\"\xff\xc3\xa9\"").as_deref(), Some("\u{fffd}é"));
    }

    #[test]
    fn integers_are_strict() {
        assert_eq!(parse_int("-12", 64), Some(-12));
        assert_eq!(parse_int("1.0", 64), None);
        assert_eq!(parse_int("1e2", 64), None);
        assert_eq!(parse_int("128", 8), None);
        assert_eq!(parse_int("-128", 8), Some(-128));
        assert_eq!(parse_uint("-0", 64), None);
        assert_eq!(parse_uint("18446744073709551615", 64), Some(u64::MAX));
        assert_eq!(parse_uint("18446744073709551616", 64), None);
        assert_eq!(parse_uint("256", 8), None);
    }

    #[test]
    fn floats_reject_overflow_only() {
        assert_eq!(parse_float("1e999", 64), None);
        assert_eq!(parse_float("1e39", 32), None);
        assert_eq!(parse_float("1e-999", 64), Some(0.0));
        assert!(parse_float("-0", 64).is_some_and(|f| f.is_sign_negative()));
        assert_eq!(parse_float("0.1", 32), Some(f64::from(0.1f32)));
    }
}

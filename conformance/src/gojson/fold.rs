//! Case-insensitive key matching (fold.go `foldName`, `foldRune`).
//!
//! Go looks a key up by its exact name first, then by its folded name: ASCII
//! letters upper-cased, every other rune replaced by the smallest rune of its
//! Unicode simple case-folding orbit (`unicode.SimpleFold` iterated). So
//! `"ALLOW"`, `"aLlOw"` and `"allow"` all reach a field `allow`, and so do
//! the non-ASCII look-alikes U+017F 'ſ' (orbit S, s, ſ) for 's' and U+212A
//! KELVIN SIGN (orbit K, k, K) for 'k'.

/// fold.go `foldName`: the key in the form field names are indexed by.
/// Input that is not valid UTF-8 folds each bad byte to U+FFFD, as Go's
/// `utf8.DecodeRune` does (keys are already valid: the decoder unquotes them).
pub fn fold_name(name: &str) -> String {
    name.chars().map(fold_rune).collect()
}

/// fold.go `foldRune`: the smallest rune with the same simple case folding.
///
/// Approximation: Go walks `unicode.SimpleFold`'s orbit; this takes the
/// closure of the rune under Rust's single-character upper and lower case
/// mappings (two rounds), which yields the same orbit for ASCII, Latin,
/// Greek, Cyrillic and the special cases above (ſ, K, Å, ς, ẞ/ß, ...). Runes
/// whose orbit contains only multi-character case mappings, or a member no
/// simple upper/lower mapping reaches, may fold differently.
pub fn fold_rune(r: char) -> char {
    if r.is_ascii() {
        return r.to_ascii_uppercase();
    }
    let mut orbit = vec![r];
    for _ in 0..2 {
        let mut grown = orbit.clone();
        for &c in &orbit {
            for mapped in [single(c.to_lowercase()), single(c.to_uppercase())].into_iter().flatten() {
                if !grown.contains(&mapped) {
                    grown.push(mapped);
                }
            }
        }
        orbit = grown;
    }
    orbit.into_iter().min().unwrap_or(r)
}

fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
    let first = it.next()?;
    it.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_upper_cases() {
        assert_eq!(fold_name("aLlOw_1"), "ALLOW_1");
    }

    #[test]
    fn long_s_and_kelvin_fold_to_ascii() {
        assert_eq!(fold_name("\u{17f}"), "S");
        assert_eq!(fold_name("\u{212a}"), "K");
        assert_eq!(fold_name("ta\u{17f}\u{212a}"), fold_name("task"));
    }

    #[test]
    fn latin_and_greek_letters_fold_to_their_smallest_case() {
        assert_eq!(fold_rune('é'), 'É');
        assert_eq!(fold_rune('\u{c5}'), '\u{c5}'); // Å
        assert_eq!(fold_rune('\u{212b}'), '\u{c5}'); // ANGSTROM SIGN
        assert_eq!(fold_rune('ς'), 'Σ');
        assert_eq!(fold_rune('σ'), 'Σ');
        assert_eq!(fold_rune('ß'), 'ß');
        assert_eq!(fold_rune('\u{1e9e}'), 'ß');
    }
}

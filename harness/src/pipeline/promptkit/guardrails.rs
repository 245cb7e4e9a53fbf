//! Pack validators (guardrails) as PromptKit runs them: provider hooks ahead
//! of every exec hook, always `Enforced` (never a denial), rewriting the
//! content they judge (research: promptkit.md §5).

use crate::scenario::{Guardrail, GuardrailSpec};

/// PromptKit's text for blocked content when the validator sets no
/// `message` (runtime/prompt/registry.go:247 DefaultBlockedMessage at
/// v1.5.11; a hand run of the real SDK showed it, see FIDELITY.md).
pub(super) const DEFAULT_BLOCKED: &str = "Sorry, we can't provide this response as it would violate our content policy.";

/// Which side of the LLM call a guardrail judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// The last user message, before the call.
    Input,
    /// The model's answer, after the call.
    Output,
}

/// A guardrail that fired: its type and the rewritten content.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Fired {
    pub kind: &'static str,
    pub content: String,
    pub explanation: String,
}

fn parts(g: &Guardrail) -> (&'static str, &GuardrailSpec) {
    match g {
        Guardrail::BannedWords(s) => ("banned_words", s),
        Guardrail::Length(s) => ("length", s),
        Guardrail::MaxSentences(s) => ("max_sentences", s),
        Guardrail::RequiredFields(s) => ("required_fields", s),
    }
}

/// Whether `g` judges `side` (`direction`: input, output (default), both;
/// anything else is output, as in PromptKit).
pub(super) fn judges(g: &Guardrail, side: Side) -> bool {
    match (parts(g).1.direction.as_deref(), side) {
        (Some("both"), _) => true,
        (Some("input"), s) => s == Side::Input,
        (_, s) => s == Side::Output,
    }
}

/// Evaluates `g` on `content`. `max_sentences_enforced` is false for
/// promptkit@86d9f36, where the handler is a pure measurement.
pub(super) fn check(g: &Guardrail, content: &str, max_sentences_enforced: bool) -> Option<Fired> {
    let (kind, spec) = parts(g);
    let message = spec.message.clone().unwrap_or_else(|| DEFAULT_BLOCKED.to_string());
    let fired = |content: String, explanation: String| Some(Fired { kind, content, explanation });
    match g {
        Guardrail::BannedWords(_) => {
            let hits: Vec<&String> = spec.words.iter().filter(|w| contains_word(content, w)).collect();
            if hits.is_empty() {
                None
            } else {
                fired(message, format!("banned words found: {}", hits.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")))
            }
        }
        Guardrail::Length(_) => {
            let max = spec.max.unwrap_or(0) as usize;
            // PromptKit counts and truncates bytes (which can split a character).
            if max > 0 && content.len() > max {
                fired(String::from_utf8_lossy(&content.as_bytes()[..max]).into_owned(), format!("{} bytes exceeds {max}", content.len()))
            } else {
                None
            }
        }
        Guardrail::MaxSentences(_) => {
            let count = content.split(['.', '!', '?']).filter(|s| !s.trim().is_empty()).count();
            let max = spec.max.unwrap_or(u64::MAX) as usize;
            if max_sentences_enforced && count > max { fired(message, format!("{count} sentences exceeds {max}")) } else { None }
        }
        Guardrail::RequiredFields(_) => {
            let lower = content.to_lowercase();
            let missing: Vec<&String> = spec.fields.iter().filter(|f| !lower.contains(&f.to_lowercase())).collect();
            if missing.is_empty() {
                None
            } else {
                fired(message, format!("missing fields: {}", missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")))
            }
        }
    }
}

/// Case-insensitive whole-word match with ASCII word boundaries (Go RE2 `\b`).
fn contains_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let hay = text.to_ascii_lowercase();
    let needle = word.to_ascii_lowercase();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = hay.as_bytes();
    let mut from = 0;
    while let Some(pos) = hay[from..].find(&needle) {
        let start = from + pos;
        let end = start + needle.len();
        let before_ok = start == 0 || !is_word(bytes[start - 1]);
        let after_ok = end == bytes.len() || !is_word(bytes[end]);
        if before_ok && after_ok {
            return true;
        }
        from = start + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> GuardrailSpec {
        GuardrailSpec::default()
    }

    #[test]
    fn banned_words_use_word_boundaries() {
        let g = Guardrail::BannedWords(GuardrailSpec { words: vec!["guarantee".into()], message: Some("no".into()), ..spec() });
        assert_eq!(check(&g, "We GUARANTEE it.", true).unwrap().content, "no");
        assert!(check(&g, "guaranteed delivery", true).is_none());
    }

    #[test]
    fn length_truncates_bytes_and_max_sentences_only_when_enforced() {
        let g = Guardrail::Length(GuardrailSpec { max: Some(5), ..spec() });
        assert_eq!(check(&g, "abcdefgh", true).unwrap().content, "abcde");
        let s = Guardrail::MaxSentences(GuardrailSpec { max: Some(1), ..spec() });
        assert!(check(&s, "One. Two. Three.", false).is_none());
        assert!(check(&s, "One. Two. Three.", true).is_some());
    }

    #[test]
    fn required_fields_are_substrings() {
        let g = Guardrail::RequiredFields(GuardrailSpec { fields: vec!["Order Number".into(), "tracking".into()], ..spec() });
        assert!(check(&g, "Your order number is 4 and tracking is X", true).is_none());
        assert!(check(&g, "Your order number is 4", true).unwrap().explanation.contains("tracking"));
        assert!(judges(&Guardrail::Length(spec()), Side::Output) && !judges(&Guardrail::Length(spec()), Side::Input));
    }
}

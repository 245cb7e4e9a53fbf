//! The page every HTML report is: one self-contained document with its CSS and script inline,
//! and the escaping every piece of text goes through on its way in.
//!
//! The page fetches nothing (no fonts, no CDN, no images) and works from `file://`. Its Content
//! Security Policy forbids every network request and runs only the inline style and script whose
//! hashes it names, so even text that escaped escaping could not run a script or call home.

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::report::escape;

const CSS: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// Text for HTML: control and bidi characters made visible (`\u{..}`, as in the terminal), then
/// `& < > " '` as character references, so it is safe in element content and in quoted attributes.
pub fn text(raw: &str) -> String {
    let visible = escape(raw);
    let mut out = String::with_capacity(visible.len());
    for c in visible.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole document: `title` (escaped here) and `body` (already HTML).
pub fn document(title: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + CSS.len() + SCRIPT.len() + 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src '{}'; script-src '{}'; base-uri 'none'; form-action 'none'\">\n\
         <meta name=\"generator\" content=\"proctor {}\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        hash(CSS),
        hash(SCRIPT),
        env!("CARGO_PKG_VERSION"),
        text(title),
    );
    out
}

/// A status as a word and a symbol, so it reads without colour; the class adds the colour.
pub fn status(name: &str) -> String {
    let (symbol, word) = match name {
        "pass" => ("✓", "pass"),
        "fail" => ("✗", "fail"),
        "untestable" => ("⊘", "untestable"),
        "warn" => ("⚠", "warn"),
        "skip" => ("–", "skip"),
        "expected_failure" => ("◇", "expected failure"),
        "error" => ("‼", "error"),
        "conformant" => ("✓", "conformant"),
        "nonconformant" => ("✗", "nonconformant"),
        "valid" => ("✓", "valid"),
        "invalid" => ("✗", "invalid"),
        "warning" => ("⚠", "warning"),
        _ => ("·", "not run"),
    };
    format!("<span class=\"s s-{name}\"><span aria-hidden=\"true\">{symbol}</span> {word}</span>")
}

/// `n` and the noun that goes with it: "1 check", "2 checks", "0 checks".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A labelled block of evidence bytes, kept as they came (line endings shown).
pub fn evidence(out: &mut String, kind: &str, label: &str, raw: &str) {
    let _ = write!(
        out,
        "<p class=\"label\">{label}</p>\n<pre class=\"evidence\" data-kind=\"{kind}\">{}</pre>\n",
        text(&crate::report::escape::visible(raw, usize::MAX))
    );
}

/// `'sha256-…'` of a source, as a Content Security Policy names an inline script or style.
fn hash(source: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(source.as_bytes())))
}

/// Standard base64 with padding (RFC 4648 §4), which CSP hashes are written in.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_markup_quotes_controls_and_bidi() {
        assert_eq!(text("</pre><script>alert('x')</script>"), "&lt;/pre&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
        assert_eq!(text("a & \"b\""), "a &amp; &quot;b&quot;");
        assert_eq!(text("\u{1b}[31mred\u{202e}txt"), "\\u{1b}[31mred\\u{202e}txt");
        assert_eq!(text("two\nlines"), "two\nlines");
    }

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (plain, encoded) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain}");
        }
    }

    #[test]
    fn the_page_names_no_other_origin_and_allows_only_its_own_script() {
        let page = document("t <x>", "<p>body</p>");
        assert!(page.contains("<title>t &lt;x&gt;</title>"));
        for remote in ["http://", "https://", "@import", "url(", " src=", "<link"] {
            assert!(!page.contains(remote), "the page refers to {remote}");
        }
        assert!(page.contains(&format!("script-src '{}'", hash(SCRIPT))));
        assert_eq!(page.matches("<script>").count(), 1);
    }
}

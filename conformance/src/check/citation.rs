//! Which of a check's spec citations a report on one family shows.
//!
//! A check shared by several families cites each family's document in its own `; `-separated part
//! (the catalogue, and `proctor checks`, list them all). A report on one family shows the parts
//! that cite its own document or no family's document (an RFC, a runtime's behaviour), never the
//! parts that only cite another family's: a PicoClaw report pointing at the runok document sends
//! its reader to the wrong spec.

use std::borrow::Cow;

use crate::protocol::Family;

/// `spec` as a report on `family` cites it. Borrowed when nothing is left out; the whole `spec` if
/// every part cites another family (the catalogue's tests keep that from happening).
pub fn spec_for(spec: &'static str, family: Family) -> Cow<'static, str> {
    let own = family.document();
    let others: Vec<&str> = Family::ALL.iter().map(|f| f.document()).filter(|d| *d != own).collect();
    let kept: Vec<&str> = spec.split("; ").filter(|part| part.contains(own) || !others.iter().any(|other| part.contains(other))).collect();
    match kept.len() {
        0 => Cow::Borrowed(spec),
        n if n == spec.split("; ").count() => Cow::Borrowed(spec),
        _ => Cow::Owned(kept.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CATALOGUE;

    #[test]
    fn a_shared_check_cites_only_the_families_own_document() {
        let version = crate::check::lookup("JSONRPC-VERSION").unwrap().spec;
        assert_eq!(spec_for(version, Family::PicoclawHook), "picoclaw-hook-protocol.md#basic-protocol-structure; JSON-RPC 2.0 §5");
        assert_eq!(spec_for(version, Family::RunokExtension), "runok-extension-protocol.txt#response; JSON-RPC 2.0 §5");
        assert_eq!(spec_for(version, Family::PromptkitServer), "JSON-RPC 2.0 §5");
    }

    #[test]
    fn every_check_cites_something_and_no_other_familys_document_for_each_of_its_families() {
        for c in CATALOGUE {
            for &family in c.families {
                let shown = spec_for(c.spec, family);
                assert!(!shown.trim().is_empty(), "{} cites nothing for {family}", c.id);
                for other in Family::ALL.iter().map(|f| f.document()).filter(|d| *d != family.document()) {
                    assert!(!shown.contains(other), "{} cites {other} in a {family} report: {shown}", c.id);
                }
            }
        }
    }
}

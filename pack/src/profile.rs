//! The three readers of a pack. Each reads the same file differently (which fields exist, which names
//! must resolve, how a template is filled in), and a pack author needs to see all three.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PackProfile {
    /// The spec: `promptpack-spec` schema 1.4.0 for shapes, its prose for behaviour.
    Documented,
    /// PromptKit `86d9f367`: its forked schema (`runtime/prompt/schema/promptpack.schema.json`, "1.5.0",
    /// checked by gojsonschema), its loader's cross-checks (`sdk/internal/pack/validate.go`) and its
    /// template path (`runtime/template/renderer.go`, `stage/stages_core.go`).
    PromptKit,
    /// promptpack-python `c78e36b`: loads packs and renders templates only (`parser.py`, `template.py`).
    PromptPackPython,
}

impl PackProfile {
    pub const ALL: [PackProfile; 3] = [PackProfile::Documented, PackProfile::PromptKit, PackProfile::PromptPackPython];

    pub fn name(self) -> &'static str {
        match self {
            PackProfile::Documented => "documented",
            PackProfile::PromptKit => "promptkit@86d9f36",
            PackProfile::PromptPackPython => "promptpack-python@c78e36b",
        }
    }

    /// Accepts the full name or the implementation's name alone (`promptkit`, `promptpack-python`).
    pub fn parse(name: &str) -> Result<PackProfile, String> {
        let wanted = name.trim();
        PackProfile::ALL.into_iter().find(|p| p.name() == wanted || p.name().split('@').next() == Some(wanted)).ok_or_else(|| {
            let names: Vec<&str> = PackProfile::ALL.iter().map(|p| p.name()).collect();
            format!("unknown pack profile `{wanted}`; the pack profiles are {}", names.join(", "))
        })
    }

    /// Whether this profile reads the pack through PromptKit's schema fork and loader.
    pub fn is_promptkit(self) -> bool {
        self == PackProfile::PromptKit
    }
}

impl fmt::Display for PackProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

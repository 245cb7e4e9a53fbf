//! A pack's skills as PromptKit offers them (runtime/skills/tool_executor.go, executor.go at
//! 86d9f367): the model gets `skill__activate {name}`, answered `{"added_tools", "instructions"}`
//! with the skill's instructions (activating an active skill answers the same again),
//! `skill__deactivate {name}`, answered `{"removed_tools"}`, and `skill__read_resource`.
//! proctor loads inline skills (`{name, description, instructions}`); a skill given as a path names a
//! SKILL.md folder it does not read, and activating one fails.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

pub(super) const TOOLS: [&str; 3] = ["skill__activate", "skill__deactivate", "skill__read_resource"];

#[derive(Default)]
pub(super) struct Skills {
    inline: BTreeMap<String, String>,
    active: BTreeSet<String>,
    /// Whether the pack also names skills by path (folders proctor does not read).
    by_path: bool,
}

impl Skills {
    /// The pack's inline skills; `None` when it declares no skills (and no skill tool is offered).
    pub(super) fn of(pack: &Value) -> Option<Skills> {
        let list = pack["skills"].as_array().filter(|l| !l.is_empty())?;
        let inline = list.iter().filter_map(|s| Some((s["name"].as_str()?.to_string(), s["instructions"].as_str()?.to_string()))).collect();
        let by_path = list.iter().any(|s| s["instructions"].as_str().is_none());
        Some(Skills { inline, active: BTreeSet::new(), by_path })
    }

    /// Runs a skill tool call; `None` when `name` is not one.
    pub(super) fn call(&mut self, tool: &str, arguments: &Value) -> Option<Result<Value, String>> {
        let skill = arguments["name"].as_str().unwrap_or_default().to_string();
        Some(match tool {
            "skill__activate" => match self.inline.get(&skill) {
                Some(instructions) => {
                    self.active.insert(skill);
                    Ok(json!({"added_tools": [], "instructions": instructions}))
                }
                // PromptKit's words for a skill it does not have (runtime/skills/registry.go:259).
                None if !self.by_path => Err(format!("activating skill {skill:?}: skill {skill:?} not found")),
                None => Err(format!("activating skill {skill:?}: not found (proctor loads inline skills only)")),
            },
            "skill__deactivate" if self.active.remove(&skill) => Ok(json!({"removed_tools": []})),
            "skill__deactivate" => Err(format!("skill {skill:?} is not active")),
            "skill__read_resource" => Err(format!(
                "skill {:?} has no resources (proctor loads inline skills only)",
                arguments["skill_name"].as_str().unwrap_or_default()
            )),
            _ => return None,
        })
    }
}

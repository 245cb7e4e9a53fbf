//! PromptKit's RuntimeConfig (`kind: RuntimeConfig`, `pkg/config/runtime_config.go` at 86d9f367): the
//! file that binds a pack's tools, eval types, hooks and selectors to exec plugins. Only the bindings
//! are read here; providers, logging and the rest are PromptKit's business, ignored as its YAML
//! decoder ignores unknown keys.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::source::{self, LoadError, child};

pub const API_VERSION: &str = "promptkit.altairalabs.ai/v1alpha1";

/// Where in the RuntimeConfig a binding sits, which says what kind of plugin it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `spec.tools.NAME.exec`: a pack tool.
    Tool,
    /// `spec.evals.TYPE`: an eval type.
    Eval,
    /// `spec.hooks.NAME`: a provider, tool, session or eval hook.
    Hook,
    /// `spec.selectors.NAME`: a tool or skill selector.
    Selector,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookKind {
    Provider,
    Tool,
    Session,
    Eval,
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub section: Section,
    /// The key: tool name, eval type, hook or selector name.
    pub name: String,
    /// JSON pointer of the binding (`/spec/hooks/content_policy`).
    pub pointer: String,
    pub line: u32,
    pub column: u32,
    /// `command` then `args`, as PromptKit passes them to the process (no shell, no path resolution).
    pub command: Vec<String>,
    /// Names of the host variables the plugin gets (`env:`).
    pub env: Vec<String>,
    pub timeout_ms: Option<u64>,
    /// `runtime: server` (long-lived JSON-RPC) rather than one process per call; tools only.
    pub server: bool,
    pub hook: Option<HookKind>,
    pub phases: Vec<String>,
    /// `filter` (the default) or `observe`; hooks only.
    pub mode: String,
}

impl Binding {
    /// `spec.hooks.content_policy`, for headings and messages.
    pub fn label(&self) -> String {
        self.pointer.trim_start_matches('/').replace('/', ".")
    }
}

#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    pub file: PathBuf,
    /// The folder plugins are started in (the file's own).
    pub dir: PathBuf,
    pub bindings: Vec<Binding>,
    /// Tools bound to something other than an exec process (mock, HTTP, MCP, client): no plugin to judge.
    pub not_exec: Vec<String>,
    /// Keys PromptKit's decoder does not know and drops without a word (a `timeuot_ms`, a `hookz:`),
    /// each as `file:line:column: what`.
    pub unknown_keys: Vec<String>,
}

/// The keys PromptKit's RuntimeConfig types declare (their `yaml:` tags at 86d9f367), by place.
/// `yaml.Unmarshal` without `KnownFields` (pkg/config/runtime_config.go:291) ignores every other.
const TOP_KEYS: &[&str] = &["apiVersion", "kind", "metadata", "spec"];
/// `RuntimeConfigSpec` (pkg/config/runtime_config.go).
const SPEC_KEYS: &[&str] = &[
    "providers",
    "embedding_providers",
    "tts_providers",
    "stt_providers",
    "inference_providers",
    "tools",
    "mcp_servers",
    "state_store",
    "logging",
    "evals",
    "hooks",
    "sandboxes",
    "selectors",
    "skills",
    "tool_selector",
];
/// `ToolSpec` (pkg/config/types.go).
const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "input_schema",
    "output_schema",
    "mode",
    "timeout_ms",
    "mock_result",
    "mock_template",
    "mock_parts",
    "http",
    "exec",
    "client",
];
/// `execconfig.ExecBinding` (runtime/hooks/execconfig/execconfig.go): tools' `exec` and evals.
const EXEC_KEYS: &[&str] = &["command", "runtime", "env", "args", "timeout_ms", "sandbox"];
/// `execconfig.ExecHook`: an ExecBinding inline, and the hook's own keys.
const HOOK_KEYS: &[&str] = &["command", "runtime", "env", "args", "timeout_ms", "sandbox", "hook", "phases", "mode"];
/// `SelectorConfig` (pkg/config/runtime_config.go).
const SELECTOR_KEYS: &[&str] = &["command", "args", "env", "timeout_ms", "sandbox"];

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{0}")]
    Load(String),
    #[error("{file}:{line}:{column}: {message}")]
    Invalid { file: PathBuf, line: u32, column: u32, message: String },
}

pub fn load(path: &Path) -> Result<RuntimeConfig, ConfigError> {
    let document = source::load(path).map_err(|e| match e {
        LoadError::Empty { file, .. } => {
            ConfigError::Load(format!("{}: the file is empty; a RuntimeConfig has apiVersion, kind and spec", file.display()))
        }
        LoadError::NotAnObject { file, line, column, found } => ConfigError::Load(format!(
            "{}:{line}:{column}: a RuntimeConfig is one mapping at the top level, this is {found}",
            file.display()
        )),
        other => ConfigError::Load(other.to_string().replace("the pack", "the RuntimeConfig")),
    })?;
    let invalid = |pointer: &str, message: String| {
        let place = document.place(pointer);
        ConfigError::Invalid { file: document.file.clone(), line: place.line, column: place.column, message }
    };
    let root = &document.value;
    let text = |v: &Value, pointer: &str| -> Result<String, ConfigError> {
        v.as_str().map(str::to_string).ok_or_else(|| invalid(pointer, format!("expected a string, found {}", source::kind(v))))
    };
    match root.get("apiVersion") {
        Some(Value::String(v)) if v == API_VERSION => {}
        other => {
            let found = other.map_or("nothing".to_string(), |v| v.to_string());
            return Err(invalid(
                "/apiVersion",
                format!("apiVersion must be {API_VERSION} (PromptKit refuses anything else), found {found}"),
            ));
        }
    }
    if root.get("kind").and_then(Value::as_str) != Some("RuntimeConfig") {
        return Err(invalid("/kind", "kind must be RuntimeConfig".into()));
    }
    let spec = root.get("spec").and_then(Value::as_object);
    let mut bindings = Vec::new();
    let mut not_exec = Vec::new();
    let section = |name: &str| spec.and_then(|s| s.get(name)).and_then(Value::as_object).into_iter().flat_map(|m| m.iter());
    let binding = |section_kind: Section, name: &str, pointer: String, v: &Value| -> Result<Binding, ConfigError> {
        let Some(map) = v.as_object() else { return Err(invalid(&pointer, format!("expected a mapping, found {}", source::kind(v)))) };
        let command = match map.get("command") {
            Some(c) => text(c, &child(&pointer, "command"))?,
            None => String::new(),
        };
        if command.trim().is_empty() {
            return Err(invalid(&pointer, format!("`{name}` has no command; PromptKit cannot start it")));
        }
        let list = |key: &str| -> Result<Vec<String>, ConfigError> {
            let at = child(&pointer, key);
            match map.get(key) {
                None | Some(Value::Null) => Ok(Vec::new()),
                Some(Value::Array(items)) => items.iter().enumerate().map(|(i, item)| text(item, &child(&at, &i.to_string()))).collect(),
                Some(other) => Err(invalid(&at, format!("expected a list, found {}", source::kind(other)))),
            }
        };
        let mut argv = vec![command];
        argv.extend(list("args")?);
        let timeout_ms = match map.get("timeout_ms") {
            None => None,
            Some(v) => Some(timeout(v).map_err(|why| invalid(&child(&pointer, "timeout_ms"), why))?),
        };
        let server = match map.get("runtime").and_then(Value::as_str) {
            None | Some("exec") => false,
            Some("server") if section_kind == Section::Tool => true,
            Some(other) => return Err(invalid(&child(&pointer, "runtime"), format!("runtime `{other}` is not exec or server"))),
        };
        let hook = match (section_kind, map.get("hook").and_then(Value::as_str)) {
            (Section::Hook, Some("provider")) => Some(HookKind::Provider),
            (Section::Hook, Some("tool")) => Some(HookKind::Tool),
            (Section::Hook, Some("session")) => Some(HookKind::Session),
            (Section::Hook, Some("eval")) => Some(HookKind::Eval),
            (Section::Hook, other) => {
                return Err(invalid(
                    &child(&pointer, "hook"),
                    format!("hook must be provider, tool, session or eval, found {}", other.unwrap_or("nothing")),
                ));
            }
            _ => None,
        };
        let mode = map.get("mode").and_then(Value::as_str).unwrap_or("filter").to_string();
        if section_kind == Section::Hook && mode != "filter" && mode != "observe" {
            return Err(invalid(&child(&pointer, "mode"), format!("mode `{mode}` is not filter or observe")));
        }
        let place = document.key_place(&pointer);
        let (env, phases) = (list("env")?, list("phases")?);
        Ok(Binding {
            section: section_kind,
            name: name.to_string(),
            line: place.line,
            column: place.column,
            pointer,
            command: argv,
            env,
            timeout_ms,
            server,
            hook,
            phases,
            mode,
        })
    };
    for (name, tool) in section("tools") {
        let pointer = child("/spec/tools", name);
        match tool.get("exec") {
            Some(exec) => bindings.push(binding(Section::Tool, name, child(&pointer, "exec"), exec)?),
            None => not_exec.push(name.clone()),
        }
    }
    for (kind, key) in [(Section::Eval, "evals"), (Section::Hook, "hooks"), (Section::Selector, "selectors")] {
        for (name, value) in section(key) {
            bindings.push(binding(kind, name, child(&child("/spec", key), name), value)?);
        }
    }
    if bindings.is_empty() {
        return Err(invalid(
            "/spec",
            "binds no exec plugin (spec.tools.*.exec, spec.evals, spec.hooks, spec.selectors): nothing to judge".into(),
        ));
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let unknown_keys = unknown_keys(&document);
    Ok(RuntimeConfig { file: path.to_path_buf(), dir, bindings, not_exec, unknown_keys })
}

/// Every key PromptKit would drop, where it is, and the key it was probably meant to be.
fn unknown_keys(document: &source::Document) -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |pointer: &str, value: &Value, known: &[&str]| {
        for key in value.as_object().into_iter().flat_map(|m| m.keys()) {
            if known.contains(&key.as_str()) {
                continue;
            }
            let at = child(pointer, key);
            let place = document.key_place(&at);
            let near = crate::shape::nearest(key, known).map(|n| format!("; did you mean `{n}`?")).unwrap_or_default();
            let within = if pointer.is_empty() { "the top level".to_string() } else { pointer.trim_start_matches('/').replace('/', ".") };
            found.push(format!(
                "{}:{}:{}: `{key}` is not a key of {within}: PromptKit's decoder drops it without a word (yaml.Unmarshal, pkg/config/runtime_config.go:291){near}",
                document.file.display(),
                place.line,
                place.column
            ));
        }
    };
    let root = &document.value;
    check("", root, TOP_KEYS);
    let Some(spec) = root.get("spec") else { return found };
    check("/spec", spec, SPEC_KEYS);
    let entries = |key: &str| spec.get(key).and_then(Value::as_object).into_iter().flat_map(|m| m.iter());
    for (name, tool) in entries("tools") {
        let pointer = child("/spec/tools", name);
        check(&pointer, tool, TOOL_KEYS);
        if let Some(exec) = tool.get("exec") {
            check(&child(&pointer, "exec"), exec, EXEC_KEYS);
        }
    }
    for (key, known) in [("evals", EXEC_KEYS), ("hooks", HOOK_KEYS), ("selectors", SELECTOR_KEYS)] {
        for (name, binding) in entries(key) {
            check(&child(&child("/spec", key), name), binding, known);
        }
    }
    found
}

/// A binding's `timeout_ms` as PromptKit reads it: a Go `int` of
/// milliseconds, so a whole number, above 0, at most `math.MaxInt64`.
fn timeout(v: &Value) -> Result<u64, String> {
    let max = i64::MAX as u64;
    match v {
        Value::Number(n) if n.as_u64().is_some_and(|ms| ms > 0 && ms <= max) => Ok(n.as_u64().unwrap_or(max)),
        Value::Number(n) if n.as_f64().is_some_and(|f| f > max as f64) => {
            Err(format!("timeout_ms {n} is more than PromptKit can read: it is a Go int, at most {max} milliseconds"))
        }
        Value::Number(n) if n.as_f64().is_some_and(|f| f > 0.0 && f.fract() != 0.0) => {
            Err(format!("timeout_ms {n} is not a whole number of milliseconds (PromptKit reads an integer)"))
        }
        _ => Err("timeout_ms must be a positive number of milliseconds".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile_dir::Dir, PathBuf) {
        let dir = tempfile_dir::Dir::new();
        let path = dir.0.join("runtime.yaml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    /// A throwaway folder without a dev-dependency.
    mod tempfile_dir {
        pub struct Dir(pub std::path::PathBuf);
        impl Dir {
            pub fn new() -> Dir {
                static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
                let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let path = std::env::temp_dir().join(format!("proctor-rc-{}-{n}", std::process::id()));
                std::fs::create_dir_all(&path).unwrap();
                Dir(path)
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn the_example_binds_five_plugins() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/promptkit-runtime-config/runtime.yaml");
        let config = load(&path).unwrap();
        let labels: Vec<String> = config.bindings.iter().map(Binding::label).collect();
        assert_eq!(
            labels,
            [
                "spec.tools.sentiment_analysis.exec",
                "spec.evals.tone_check",
                "spec.evals.response_quality",
                "spec.hooks.content_policy",
                "spec.hooks.audit_logger"
            ]
        );
        let policy = &config.bindings[3];
        assert_eq!((policy.hook, policy.mode.as_str(), policy.timeout_ms), (Some(HookKind::Provider), "filter", Some(3000)));
        assert_eq!(policy.command, ["python3", "./hooks/content_policy.py"]);
    }

    #[test]
    fn keys_promptkit_drops_are_named_with_their_place() {
        let (_d, path) = write(
            "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: RuntimeConfig\nhookz: {}\nspec:\n  hooks:\n    gate:\n      command: ./gate.sh\n      hook: provider\n      timeuot_ms: 100\n",
        );
        let config = load(&path).unwrap();
        assert_eq!(config.unknown_keys.len(), 2, "{:?}", config.unknown_keys);
        assert!(config.unknown_keys[0].ends_with("runtime.yaml:3:1: `hookz` is not a key of the top level: PromptKit's decoder drops it without a word (yaml.Unmarshal, pkg/config/runtime_config.go:291)"), "{:?}", config.unknown_keys);
        assert!(
            config.unknown_keys[1].contains("runtime.yaml:9:7: `timeuot_ms` is not a key of spec.hooks.gate")
                && config.unknown_keys[1].ends_with("did you mean `timeout_ms`?"),
            "{:?}",
            config.unknown_keys
        );
        assert_eq!(config.bindings[0].timeout_ms, None, "the misspelt key sets nothing, as in PromptKit");
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/promptkit-runtime-config/runtime.yaml");
        assert_eq!(load(&example).unwrap().unknown_keys, Vec::<String>::new());
    }

    #[test]
    fn mistakes_are_named_with_their_line() {
        let (_d, path) = write(
            "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: RuntimeConfig\nspec:\n  hooks:\n    gate:\n      command: ./gate.sh\n      hook: filter\n",
        );
        let error = load(&path).unwrap_err().to_string();
        assert!(error.ends_with(":7:13: hook must be provider, tool, session or eval, found filter"), "{error}");
        let (_d, path) = write("apiVersion: v1\nkind: RuntimeConfig\nspec: {}\n");
        assert!(load(&path).unwrap_err().to_string().contains(":1:13: apiVersion must be promptkit.altairalabs.ai/v1alpha1"));
        let (_d, path) =
            write("apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: RuntimeConfig\nspec:\n  tools:\n    t: {mode: mock}\n");
        assert!(load(&path).unwrap_err().to_string().contains("binds no exec plugin"));
    }
}

//! The `tools` array PromptKit's OpenAI provider sends for the tools a prompt offers
//! (runtime/providers/openai/openai_tools.go `BuildTooling` at 86d9f367, run by interop's
//! `promptkit-tools`): each tool as `{"type": "function", "function": {name, description,
//! parameters, "strict": true}}`, in name order (stages_provider.go `collectProviderDescriptors`).
//! Strict mode, the default, rewrites every schema: an object with `properties` gets
//! `additionalProperties: false` and every property `required` (an optional parameter becomes one
//! the model must always send), recursively through properties and `items`; a bare object gets
//! empty properties. Go re-encodes the schema, so keys come out sorted. PromptKit lists `required`
//! in Go's random map order; proctor sorts it.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// The wire form of the offered tools that are the pack's own (`tools.NAME`), in name order; other
/// names (workflow, skill and agent tools) are left out.
pub fn pack_tools<'a>(pack: &Value, offered: impl IntoIterator<Item = &'a str>) -> Vec<Value> {
    let defs = pack.get("tools");
    let own: Vec<(String, String, Option<Value>)> = offered
        .into_iter()
        .filter_map(|name| {
            let def = defs?.get(name)?;
            Some((
                name.to_string(),
                def.get("description").and_then(Value::as_str).unwrap_or_default().to_string(),
                def.get("parameters").cloned(),
            ))
        })
        .collect();
    promptkit_tools(&own)
}

/// The wire form of `(name, description, parameters)` for each offered tool, in name order.
/// `parameters` is the pack's value as written (`None` when the tool has none: `null` on the wire).
pub fn promptkit_tools(offered: &[(String, String, Option<Value>)]) -> Vec<Value> {
    let mut sorted: Vec<&(String, String, Option<Value>)> = offered.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted
        .into_iter()
        .map(|(name, description, parameters)| {
            let parameters = parameters.as_ref().map_or(Value::Null, |p| sorted_keys(&strict(p)));
            json!({"type": "function", "function": {"name": name, "description": description, "parameters": parameters, "strict": true}})
        })
        .collect()
}

fn strict(schema: &Value) -> Value {
    let Value::Object(object) = schema else { return schema.clone() };
    let mut object = object.clone();
    apply(&mut object);
    Value::Object(object)
}

fn apply(object: &mut Map<String, Value>) {
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        let mut names: Vec<String> = properties.keys().cloned().collect();
        names.sort();
        for property in properties.values_mut() {
            if let Value::Object(p) = property {
                apply(p);
            }
        }
        object.insert("additionalProperties".into(), Value::Bool(false));
        object.insert("required".into(), Value::Array(names.into_iter().map(Value::String).collect()));
    } else if object.get("type").and_then(Value::as_str) == Some("object") {
        object.insert("properties".into(), json!({}));
        object.insert("additionalProperties".into(), Value::Bool(false));
        object.insert("required".into(), json!([]));
    }
    if let Some(Value::Object(items)) = object.get_mut("items") {
        apply(items);
    }
}

/// Go's encoding of a map: keys in byte order, at every depth.
fn sorted_keys(value: &Value) -> Value {
    match value {
        Value::Object(object) => {
            let sorted: BTreeMap<&String, Value> = object.iter().map(|(k, v)| (k, sorted_keys(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_mode_requires_every_property_and_closes_every_object() {
        let params = json!({"type": "object", "properties": {"q": {"type": "string"}, "opts": {"type": "object"},
            "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}}}, "required": ["q"]});
        let tools = promptkit_tools(&[("z".into(), "".into(), None), ("a".into(), "A".into(), Some(params))]);
        assert_eq!(tools[1]["function"]["parameters"], Value::Null, "no parameters: null, as Go encodes a nil map");
        let p = &tools[0]["function"]["parameters"];
        assert_eq!(tools[0]["function"]["name"], "a", "name order");
        assert_eq!(p["required"], json!(["opts", "q", "tags"]));
        assert_eq!(p["additionalProperties"], false);
        assert_eq!(p["properties"]["opts"], json!({"additionalProperties": false, "properties": {}, "required": [], "type": "object"}));
        assert_eq!(p["properties"]["tags"]["items"]["required"], json!(["k"]));
        let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["additionalProperties", "properties", "required", "type"], "Go's key order");
    }
}

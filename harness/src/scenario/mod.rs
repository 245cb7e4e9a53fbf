//! Scenarios: the YAML format, loading with file:line:column diagnostics,
//! discovery under folders, and the format's JSON Schema.

mod discover;
mod load;
mod model;
pub mod pack;
mod values;

pub use discover::discover;
pub use load::{LoadError, load, parse};
pub use model::*;

/// The JSON Schema of the scenario format (`proctor schema`).
pub fn schema() -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    serde_json::to_value(generator.into_root_schema_for::<Scenario>()).unwrap_or_default()
}

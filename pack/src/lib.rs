//! PromptPack for proctor: what a pack is, what is wrong with one, and what the model really sees.
//!
//! A pack (prompts, fragments, tools, validators, evals, a workflow, agents, skills) is read by three
//! implementations that disagree: the spec (`documented`), PromptKit as built, and promptpack-python.
//! Everything here is pure (no process, no runtime): the reference pipeline in `harness` runs packs.
//!
//! Read top-down:
//! - [`source`]: a JSON or YAML file into a value with the line and column of every part;
//! - [`profile`]: the three readers, and the facts where they part ways;
//! - [`rules`]: the catalogue of diagnostics, each with a stable id and its source;
//! - [`diagnostic`]: one finding, at a JSON pointer and a `file:line:column`;
//! - [`shape`]: the schema 1.4.0 shape (and PromptKit's fork of it) as data, and its walker;
//! - [`references`]: what the prose says the schema cannot (names that must exist);
//! - [`workflow`]: what a workflow must say (states that exist, an end, prompts PromptKit can render);
//! - [`template`]: placeholders, and rendering a template as each implementation does;
//! - [`check`]: all of the above for one pack under one profile;
//! - [`render`]: the system prompt, tools and validators one prompt really gets;
//! - [`runtime_config`]: PromptKit's RuntimeConfig, the exec plugins bound to a pack;
//! - [`wire`]: the tools a prompt offers as PromptKit's OpenAI provider sends them.

pub mod check;
pub mod diagnostic;
pub mod profile;
pub mod references;
pub mod render;
pub mod rules;
pub mod runtime_config;
pub mod shape;
pub mod source;
pub mod template;
pub mod wire;
pub mod workflow;

pub use check::{PackReport, check};
pub use diagnostic::{Diagnostic, Severity};
pub use profile::PackProfile;
pub use source::{Document, LoadError, load};

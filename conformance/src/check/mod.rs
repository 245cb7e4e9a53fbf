//! The check model: a static catalogue of checks, typed outcomes, evidence.
//!
//! A check is declared once, in [`catalogue`], with a stable id. Running code
//! never invents checks: it reports an [`Outcome`] against a [`CheckId`], and
//! `proctor checks` prints the catalogue without spawning anything.

mod catalogue;
mod citation;
mod evidence;
pub mod grounds;
mod outcome;
pub mod tolerance;

pub use catalogue::{CATALOGUE, CheckDef, CheckId, Group, Level, Scope, answer_checks, lookup};
pub use citation::{links as spec_links, spec_for};
pub use evidence::{Evidence, clip, last_bytes};
pub use outcome::{Failure, Outcome, Status};

//! Protocol families, roles, profiles and the messages proctor sends.

mod family;

pub use family::*;

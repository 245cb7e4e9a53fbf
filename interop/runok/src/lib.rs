//! Empty: the interop checks live in `tests/runner.rs`.

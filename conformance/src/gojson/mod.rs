//! A model of Go's `json.Unmarshal(data, &v)` (encoding/json v1, Go 1.26)
//! for a described Go type.
//!
//! The runtimes proctor imitates (PromptKit, PicoClaw) decode every plugin
//! reply with `encoding/json` into typed structs, so whether a reply "works"
//! is decided by Go's rules, not by JSON's: keys match fields
//! case-insensitively, `"true"` is not a bool, `1.0` is not a uint64, `null`
//! leaves a struct alone, the first type error fails the whole reply while
//! the rest is still decoded. [`unmarshal`] answers as Go would: the value
//! the Go program holds, or Go's error with Go's message.
//!
//! - [`types`]: [`GoType`], [`GoStruct`], [`GoField`]: the destination, how
//!   Go prints it, its zero value, and its JSON field table.
//! - [`value`]: [`GoValue`], what the Go program holds afterwards.
//! - [`scan`]: the syntax check over the whole input first (scanner.go).
//! - [`decode`](mod@decode): the typed decoding (decode.go).
//! - [`literal`]: strings and numbers (decode.go `unquoteBytes`, strconv).
//! - [`fold`]: case-insensitive key matching (fold.go).
//! - [`encode`]: `json.MarshalIndent` of a decoded `any` (encode.go), the
//!   text PromptKit shows the model for a tool's result.
//!
//! Not modelled: `Unmarshaler`/`TextUnmarshaler` types other than
//! `json.RawMessage`, `,string` tags, `json.Number`, fixed arrays, maps with
//! non-string keys, and `[]byte` receiving a string (Go base64-decodes it;
//! here that is [`GoJsonError::Unsupported`]).

mod decode;
pub mod encode;
pub mod fold;
pub mod literal;
pub mod scan;
pub mod types;
pub mod value;

pub use types::{GoField, GoStruct, GoType};
pub use value::{GoFieldValue, GoMap, GoSlice, GoValue};

/// An error `json.Unmarshal` returns, with Go's `Error()` text as Display.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoJsonError {
    /// `*json.SyntaxError`: the input is not one JSON value (including
    /// `unexpected end of JSON input` and nesting beyond 10000 levels, whose
    /// text is `invalid character '[' exceeded max depth`). `offset` is Go's
    /// `Offset`: bytes read when the error was found.
    #[error("{msg}")]
    SyntaxError {
        /// Go's `SyntaxError.Offset`.
        offset: u64,
        /// Go's message.
        msg: String,
    },
    /// `*json.UnmarshalTypeError`: the first value that did not fit its Go
    /// type (Go keeps decoding after it and returns it at the end).
    #[error("{}", type_error_text(value, go_type, struct_name, field))]
    UnmarshalTypeError {
        /// What the JSON value was: `string`, `bool`, `object`, `array`,
        /// `number`, or `number <literal>` for a number that did not fit a
        /// numeric type.
        value: String,
        /// The Go type, as `reflect.Type.String()` prints it.
        go_type: String,
        /// Go's `Offset` (where decoding was when the error was found).
        offset: u64,
        /// `reflect.Type.Name()` of the innermost struct being decoded
        /// (empty for an unnamed struct type or outside any struct).
        struct_name: String,
        /// The dotted path of JSON field names (and embedded struct names).
        field: String,
    },
    /// Input this model does not cover (see the module documentation).
    #[error("gojson: not modelled: {what}")]
    Unsupported {
        /// What was not modelled.
        what: String,
    },
}

/// decode.go `UnmarshalTypeError.Error`.
fn type_error_text(value: &str, go_type: &str, struct_name: &str, field: &str) -> String {
    if struct_name.is_empty() && field.is_empty() {
        format!("json: cannot unmarshal {value} into Go value of type {go_type}")
    } else {
        format!("json: cannot unmarshal {value} into Go struct field {struct_name}.{field} of type {go_type}")
    }
}

impl GoJsonError {
    /// Go's error kind: `"syntax"` (`*json.SyntaxError`), `"type"`
    /// (`*json.UnmarshalTypeError`) or `"unsupported"`.
    pub fn kind(&self) -> &'static str {
        match self {
            GoJsonError::SyntaxError { .. } => "syntax",
            GoJsonError::UnmarshalTypeError { .. } => "type",
            GoJsonError::Unsupported { .. } => "unsupported",
        }
    }

    /// Whether this is Go's nesting limit (a `SyntaxError`).
    pub fn is_max_depth(&self) -> bool {
        matches!(self, GoJsonError::SyntaxError { msg, .. } if msg.ends_with("exceeded max depth"))
    }
}

/// What decoding produced: the value the Go program holds afterwards (even
/// when there is an error: Go decodes what it can) and Go's error, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The destination after decoding (the zero value after a syntax error).
    pub value: GoValue,
    /// What `json.Unmarshal` returned.
    pub error: Option<GoJsonError>,
}

/// `json.Unmarshal(data, &v)` for `v` of type `ty`, starting from its zero
/// value: the decoded value, or Go's error.
pub fn unmarshal(data: &[u8], ty: &GoType) -> Result<GoValue, GoJsonError> {
    let decoded = unmarshal_partial(data, ty);
    match decoded.error {
        Some(e) => Err(e),
        None => Ok(decoded.value),
    }
}

/// Like [`unmarshal`], keeping the partially decoded value alongside the
/// error (Go's destination after a type error).
pub fn unmarshal_partial(data: &[u8], ty: &GoType) -> Decoded {
    let mut value = ty.zero();
    if let Err(e) = scan::check_valid(data) {
        return Decoded { value, error: Some(e) };
    }
    let error = decode::Decoder::new(data).run(ty, &mut value);
    Decoded { value, error }
}

#[cfg(test)]
mod tests;

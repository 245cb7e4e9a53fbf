//! The `proctor` binary: parse, dispatch, exit.

fn main() -> std::process::ExitCode {
    proctor::cli::main()
}

//! `ptxdiff`: the command-line edge. The commands live in [`runner::cli`]; this turns their
//! result into an exit status, and an error into one clear message (exit status 2).

use std::process::ExitCode;

fn main() -> ExitCode {
    match runner::cli::run() {
        Ok(code) => code,
        // `ptxdiff variants | head`: the reader is gone, which is not an error of ours.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

//! `ptxdiff`: the command-line edge. The commands live in [`runner::cli`]; this turns their
//! result into an exit status, and an error into one clear message (exit status 2). A reader
//! that goes away (`ptxdiff allowances | head -1`) ends the command quietly with exit status 0,
//! whether the write that noticed was returned as an error or was a `println!` (which panics).

use std::process::ExitCode;

/// Whether a panic is `println!`'s on a closed stdout (std's message: "failed printing to
/// stdout: Broken pipe (os error 32)").
fn is_broken_stdout(info: &std::panic::PanicHookInfo<'_>) -> bool {
    let payload = info.payload();
    let text = payload.downcast_ref::<String>().map(String::as_str).or_else(|| payload.downcast_ref::<&str>().copied());
    text.is_some_and(|t| t.starts_with("failed printing to stdout") && t.contains("os error 32"))
}

fn main() -> ExitCode {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if is_broken_stdout(info) {
            std::process::exit(0);
        }
        default_hook(info);
    }));
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

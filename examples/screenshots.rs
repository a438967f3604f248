//! Makes the pictures in `docs/` from the real program: runs kxo-tui in a
//! pseudo-terminal, reads its screen through a terminal emulator (vt100),
//! and paints every cell, in its colours, with ImageMagick.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example screenshots    # needs ImageMagick's `convert`
//! ```

use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// Pixels per cell, and the font size that fills it.
const CELL_W: usize = 10;
const CELL_H: usize = 20;
const FONT_SIZE: usize = 16;
const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
const BACKGROUND: (u8, u8, u8) = (0x1d, 0x1f, 0x21);
const FOREGROUND: (u8, u8, u8) = (0xd8, 0xd8, 0xd8);

/// One picture: the flags, the terminal size, and keys sent along the way
/// (each after the pause before it).
struct Shot {
    name: &'static str,
    args: &'static [&'static str],
    size: (u16, u16),
    steps: &'static [(u64, &'static str)],
}

const SHOTS: &[Shot] = &[
    Shot {
        name: "live",
        args: &["--seed", "7"],
        size: (120, 40),
        steps: &[(9000, "")],
    },
    Shot {
        name: "wide",
        args: &["--seed", "8"],
        size: (200, 60),
        steps: &[(12000, "")],
    },
    Shot {
        name: "zoom",
        args: &["--seed", "7", "--delay", "250", "--games", "9"],
        size: (120, 40),
        steps: &[(1500, "\x1b[C"), (200, "\r"), (2500, "")],
    },
    Shot {
        name: "leaderboard",
        args: &["--seed", "3", "--delay", "0", "--hold", "100"],
        size: (120, 40),
        steps: &[(500, "e"), (20000, "")],
    },
    Shot {
        name: "start",
        args: &["--human"],
        size: (100, 30),
        steps: &[(800, "\x1b[B\x1b[B\x1b[C"), (500, "")],
    },
    Shot {
        name: "human",
        args: &["--human", "--level", "perfect", "--delay", "100"],
        size: (100, 30),
        steps: &[(800, "b2\r"), (1200, "c3\r"), (1200, "t"), (1500, "")],
    },
    Shot {
        name: "gomoku",
        args: &[
            "--size", "15", "--goal", "5", "--games", "4", "--seed", "2", "--delay", "100",
        ],
        size: (120, 48),
        steps: &[(9000, "")],
    },
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let binary = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/release/kxo-tui".into());
    let binary = std::fs::canonicalize(&binary)
        .map_err(|e| format!("{binary}: {e} (build it first: cargo build --release)"))?
        .display()
        .to_string();
    std::fs::create_dir_all("docs")?;
    // A fresh data folder: the start screen offers its default.
    let _ = std::fs::remove_dir_all(std::env::temp_dir().join("kxo-tui-screenshots"));
    for shot in SHOTS {
        let screen = capture(&binary, shot)?;
        let path = format!("docs/{}.png", shot.name);
        paint(&screen, Path::new(&path))?;
        println!("{path}");
    }
    Ok(())
}

/// Runs the program for one shot and returns its last screen.
fn capture(binary: &str, shot: &Shot) -> Result<vt100::Screen, Box<dyn std::error::Error>> {
    let (cols, rows) = shot.size;
    let pair = native_pty_system().openpty(PtySize {
        rows,
        cols,
        pixel_width: 0,
        pixel_height: 0,
    })?;
    let mut cmd = CommandBuilder::new(binary);
    cmd.args(shot.args);
    cmd.env("TERM", "xterm-256color");
    cmd.env("COLORTERM", "truecolor");
    cmd.env("LANG", "C.UTF-8");
    cmd.env_remove("NO_COLOR");
    let data = std::env::temp_dir().join("kxo-tui-screenshots");
    cmd.env("XDG_DATA_HOME", &data);
    let mut child = pair.slave.spawn_command(cmd)?;
    drop(pair.slave);
    let nz = |v: u16| std::num::NonZeroU16::new(v).ok_or("a zero-sized terminal");
    let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(rows)?, nz(cols)?, 0)));
    let mut reader = pair.master.try_clone_reader()?;
    let feed = parser.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            if let Ok(mut p) = feed.lock() {
                p.process(&buf[..n]);
            }
        }
    });
    let mut writer = pair.master.take_writer()?;
    for (pause, keys) in shot.steps {
        std::thread::sleep(Duration::from_millis(*pause));
        writer.write_all(keys.as_bytes())?;
        writer.flush()?;
    }
    let screen = parser
        .lock()
        .map_err(|_| "parser poisoned")?
        .screen()
        .clone();
    writer.write_all(b"\x11")?; // Ctrl-Q
    writer.flush()?;
    let _ = child.wait();
    Ok(screen)
}

fn rgb(c: vt100::Color, default: (u8, u8, u8)) -> (u8, u8, u8) {
    match c {
        vt100::Color::Default => default,
        vt100::Color::Rgb(r, g, b) => (r, g, b),
        vt100::Color::Idx(i) => xterm_256(i),
    }
}

/// The xterm palette: 16 system colours, the 6x6x6 cube, the greys.
fn xterm_256(i: u8) -> (u8, u8, u8) {
    const SYSTEM: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 49, 49),
        (13, 188, 121),
        (229, 229, 16),
        (36, 114, 200),
        (188, 63, 188),
        (17, 168, 205),
        (229, 229, 229),
        (102, 102, 102),
        (241, 76, 76),
        (35, 209, 139),
        (245, 245, 67),
        (59, 142, 234),
        (214, 112, 214),
        (41, 184, 219),
        (255, 255, 255),
    ];
    match i {
        0..=15 => SYSTEM[i as usize],
        16..=231 => {
            let i = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            (level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        _ => {
            let g = 8 + 10 * (i - 232);
            (g, g, g)
        }
    }
}

/// A box-drawing character's arms: (up, down, left, right, thick).
fn box_line(text: &str) -> Option<(bool, bool, bool, bool, bool)> {
    Some(match text {
        "─" => (false, false, true, true, false),
        "│" => (true, true, false, false, false),
        "┌" => (false, true, false, true, false),
        "┐" => (false, true, true, false, false),
        "└" => (true, false, false, true, false),
        "┘" => (true, false, true, false, false),
        "├" => (true, true, false, true, false),
        "┤" => (true, true, true, false, false),
        "┬" => (false, true, true, true, false),
        "┴" => (true, false, true, true, false),
        "┼" => (true, true, true, true, false),
        "━" => (false, false, true, true, true),
        "┃" => (true, true, false, false, true),
        "┏" => (false, true, false, true, true),
        "┓" => (false, true, true, false, true),
        "┗" => (true, false, false, true, true),
        "┛" => (true, false, true, false, true),
        _ => return None,
    })
}

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Paints `screen` cell by cell into a PNG through an ImageMagick draw
/// script (each glyph at its cell, so wide box-drawing glyphs never drift).
fn paint(screen: &vt100::Screen, out: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let (rows, cols) = screen.size();
    let (rows, cols) = (rows.get(), cols.get());
    let mut mvg = format!("font '{FONT}'\nfont-size {FONT_SIZE}\n");
    for row in 0..rows {
        for col in 0..cols {
            let Some(cell) = screen.cell(row, col) else {
                continue;
            };
            let (mut fg, mut bg) = (
                rgb(cell.fgcolor(), FOREGROUND),
                rgb(cell.bgcolor(), BACKGROUND),
            );
            if cell.inverse() {
                std::mem::swap(&mut fg, &mut bg);
            }
            if cell.dim() {
                fg = (
                    fg.0 / 2 + bg.0 / 2,
                    fg.1 / 2 + bg.1 / 2,
                    fg.2 / 2 + bg.2 / 2,
                );
            }
            let (x, y) = (col as usize * CELL_W, row as usize * CELL_H);
            if bg != BACKGROUND {
                mvg.push_str(&format!(
                    "fill '{}'\nrectangle {x},{y} {},{}\n",
                    hex(bg),
                    x + CELL_W - 1,
                    y + CELL_H - 1
                ));
            }
            let text = cell.contents();
            if text.trim().is_empty() {
                continue;
            }
            // Block elements as rectangles, so the logo's shapes are solid:
            // a full block, and shades as the colour mixed with the ground.
            let shade = match text {
                "█" => Some(1.0),
                "▓" => Some(0.75),
                "▒" => Some(0.5),
                "░" => Some(0.25),
                _ => None,
            };
            // Box-drawing lines as rectangles too: they join across cells.
            if let Some((up, down, left, right, thick)) = box_line(text) {
                let w = if thick { 3 } else { 1 };
                let (cx, cy) = (x + CELL_W / 2, y + CELL_H / 2);
                let mut line = |x0: usize, y0: usize, x1: usize, y1: usize| {
                    mvg.push_str(&format!(
                        "fill '{}'\nrectangle {x0},{y0} {x1},{y1}\n",
                        hex(fg)
                    ));
                };
                let half = w / 2;
                if up {
                    line(cx - half, y, cx - half + w - 1, cy + half);
                }
                if down {
                    line(cx - half, cy - half, cx - half + w - 1, y + CELL_H - 1);
                }
                if left {
                    line(x, cy - half, cx + half, cy - half + w - 1);
                }
                if right {
                    line(cx - half, cy - half, x + CELL_W - 1, cy - half + w - 1);
                }
                continue;
            }
            if let Some(k) = shade {
                let mix = |f: u8, b: u8| (f as f64 * k + b as f64 * (1.0 - k)) as u8;
                let colour = (mix(fg.0, bg.0), mix(fg.1, bg.1), mix(fg.2, bg.2));
                mvg.push_str(&format!(
                    "fill '{}'\nrectangle {x},{y} {},{}\n",
                    hex(colour),
                    x + CELL_W - 1,
                    y + CELL_H - 1
                ));
                continue;
            }
            let escaped = text.replace('\\', "\\\\").replace('\'', "\\'");
            mvg.push_str(&format!(
                "fill '{}'\ntext {x},{} '{escaped}'\n",
                hex(fg),
                y + CELL_H - 5
            ));
        }
    }
    let script = out.with_extension("mvg");
    std::fs::write(&script, mvg)?;
    let status = Command::new("convert")
        .arg("-size")
        .arg(format!(
            "{}x{}",
            cols as usize * CELL_W,
            rows as usize * CELL_H
        ))
        .arg(format!("xc:{}", hex(BACKGROUND)))
        .arg("-draw")
        .arg(format!("@{}", script.display()))
        .arg(out)
        .status()?;
    std::fs::remove_file(&script)?;
    if !status.success() {
        return Err(format!("convert failed for {}", out.display()).into());
    }
    Ok(())
}

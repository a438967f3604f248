//! The engine crate's public face, as a snapshot that review sees change.
//!
//! `crates/kxo-engine/src/lib.rs` is the face: the modules that do the
//! work are private, so a bare `pub` item anywhere in the crate is either
//! reachable through the face's re-exports or a warning
//! (`unreachable_pub`, an error in CI). This test lists every such item
//! with its signature, the face's re-exports, and each public type's
//! public methods, and compares the list with `tests/snapshots/`: a
//! change to what the program can reach in the engine crate is a change
//! to that file, in the same commit.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, ImplItem, Item, TraitItem, Visibility};

const ENGINE_SRC: &str = "crates/kxo-engine/src";

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the engine's sources")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().contains("test"))
}

fn public(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

/// Tokens as one line of text, the way a reader writes them.
fn text(tokens: &impl ToTokens) -> String {
    let raw = tokens.to_token_stream().to_string();
    let mut out = raw
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" ,", ",")
        .replace(" :", ":")
        .replace("& ", "&")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" < ", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ;", ";")
        .replace("# [", "#[");
    while out.contains("  ") {
        out = out.replace("  ", " ");
    }
    out
}

/// One item's lines for the face: its signature, a struct's public
/// fields, an enum's variants, a trait's methods. `None` for items that
/// are not definitions (uses, impls, modules).
fn describe(item: &Item) -> Option<(String, Vec<String>)> {
    let fields = |fields: &syn::Fields| -> String {
        let shown: Vec<String> = fields
            .iter()
            .filter(|f| public(&f.vis))
            .map(|f| match &f.ident {
                Some(name) => format!("{name}: {}", text(&f.ty)),
                None => text(&f.ty),
            })
            .collect();
        shown.join(", ")
    };
    Some(match item {
        Item::Fn(f) => (f.sig.ident.to_string(), vec![text(&f.sig)]),
        Item::Struct(s) => (
            s.ident.to_string(),
            vec![format!(
                "struct {}{} {{ {} }}",
                s.ident,
                text(&s.generics),
                fields(&s.fields)
            )],
        ),
        Item::Enum(e) => {
            let variants: Vec<String> = e
                .variants
                .iter()
                .map(|v| format!("{}{}", v.ident, text(&v.fields)))
                .collect();
            (
                e.ident.to_string(),
                vec![format!(
                    "enum {}{} {{ {} }}",
                    e.ident,
                    text(&e.generics),
                    variants.join(", ")
                )],
            )
        }
        Item::Const(c) => (
            c.ident.to_string(),
            vec![format!("const {}: {}", c.ident, text(&c.ty))],
        ),
        Item::Static(s) => (
            s.ident.to_string(),
            vec![format!("static {}: {}", s.ident, text(&s.ty))],
        ),
        Item::Type(t) => (
            t.ident.to_string(),
            vec![format!("type {} = {}", t.ident, text(&t.ty))],
        ),
        Item::Trait(t) => {
            let mut lines = vec![format!("trait {}{}", t.ident, text(&t.generics))];
            for inner in &t.items {
                if let TraitItem::Fn(f) = inner {
                    lines.push(format!("    {}", text(&f.sig)));
                }
            }
            (t.ident.to_string(), lines)
        }
        _ => return None,
    })
}

/// What the crate defines and re-exports, module by module.
#[derive(Default)]
struct Crate {
    /// (module, name) to the item's lines.
    defs: std::collections::BTreeMap<(String, String), Vec<String>>,
    /// (module, name) to the path a `use` names it by, for following
    /// re-exports (`crate::ai::Mcts` is `crate::ai::mcts::Mcts`).
    uses: std::collections::BTreeMap<(String, String), String>,
    /// The face: (the path outside sees, the path it names inside).
    face: Vec<(String, String)>,
    /// Public modules of the face whose every public item is the face
    /// (`text`, `cpu`).
    open_modules: Vec<String>,
    /// A type's name to its public methods and the traits it implements.
    impls: std::collections::BTreeMap<String, Vec<String>>,
}

/// Every path a use tree names, with the name it is known by.
fn use_paths(prefix: &str, tree: &syn::UseTree, out: &mut Vec<(String, String)>) {
    let join = |a: &str, b: &str| {
        if a.is_empty() {
            b.to_string()
        } else {
            format!("{a}::{b}")
        }
    };
    match tree {
        syn::UseTree::Path(p) => use_paths(&join(prefix, &p.ident.to_string()), &p.tree, out),
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            out.push((join(prefix, &name), name));
        }
        syn::UseTree::Rename(r) => {
            out.push((join(prefix, &r.ident.to_string()), r.rename.to_string()))
        }
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_paths(prefix, t, out)),
        syn::UseTree::Glob(_) => out.push((join(prefix, "*"), "*".into())),
    }
}

/// A use's path made whole from the module it stands in.
fn absolute(module: &str, path: &str) -> String {
    let mut parts: Vec<&str> = path.split("::").collect();
    let mut base: Vec<&str> = match parts.first() {
        Some(&"crate") => {
            parts.remove(0);
            vec!["crate"]
        }
        Some(&"super") => {
            let mut base: Vec<&str> = module.split("::").collect();
            while parts.first() == Some(&"super") {
                parts.remove(0);
                base.pop();
            }
            base
        }
        Some(&"self") => {
            parts.remove(0);
            module.split("::").collect()
        }
        _ => module.split("::").collect(),
    };
    base.extend(parts);
    base.join("::")
}

impl Crate {
    fn read(&mut self, module: &str, items: &[Item], face: Option<&str>) {
        for item in items {
            if let Item::Impl(i) = item
                && !is_test(&i.attrs)
            {
                let name = match &*i.self_ty {
                    syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                    _ => None,
                };
                let Some(name) = name else { continue };
                let entry = self.impls.entry(name).or_default();
                match &i.trait_ {
                    Some((_, path, _)) => entry.push(format!("    impl {}", text(path))),
                    None => {
                        for inner in &i.items {
                            if let ImplItem::Fn(f) = inner
                                && public(&f.vis)
                                && !is_test(&f.attrs)
                            {
                                entry.push(format!("    {}", text(&f.sig)));
                            }
                        }
                    }
                }
                continue;
            }
            if let Some((name, lines)) = describe(item) {
                self.defs.insert((module.to_string(), name), lines);
                continue;
            }
            match item {
                Item::Use(u) if !matches!(u.vis, Visibility::Inherited) => {
                    let mut paths = Vec::new();
                    use_paths("", &u.tree, &mut paths);
                    for (path, name) in paths {
                        let inside = absolute(module, &path);
                        if let (Some(face), Visibility::Public(_)) = (face, &u.vis) {
                            self.face.push((format!("{face}::{name}"), inside.clone()));
                        }
                        self.uses.insert((module.to_string(), name), inside);
                    }
                }
                Item::Mod(m) if !is_test(&m.attrs) => {
                    if let Some((_, inner)) = &m.content {
                        let child = format!("{module}::{}", m.ident);
                        // An inline public module of the face is a part of it.
                        let face = face
                            .filter(|_| public(&m.vis))
                            .map(|f| format!("{f}::{}", m.ident));
                        self.read(&child, inner, face.as_deref());
                    } else if face.is_some() && public(&m.vis) {
                        self.open_modules.push(format!("{module}::{}", m.ident));
                    }
                }
                _ => {}
            }
        }
    }

    /// The item a path names, through re-exports.
    fn resolve(&self, path: &str) -> Option<(String, &Vec<String>)> {
        let mut path = path.to_string();
        for _ in 0..16 {
            let (module, name) = path.rsplit_once("::")?;
            let key = (module.to_string(), name.to_string());
            if let Some(lines) = self.defs.get(&key) {
                return Some((name.to_string(), lines));
            }
            path = self.uses.get(&key)?.clone();
        }
        None
    }
}

/// The face: each path the program can name, with the item's lines and,
/// for a type, its public methods and the traits it implements.
fn public_api() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(ENGINE_SRC);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut krate = Crate::default();
    for path in &files {
        let rel = path.strip_prefix(&root).expect("under the root");
        let mut parts: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
            parts.pop();
        }
        let module = std::iter::once("crate".to_string())
            .chain(parts)
            .collect::<Vec<_>>()
            .join("::");
        let source = std::fs::read_to_string(path).expect("read a source");
        let file = syn::parse_file(&source).expect("the engine's sources parse");
        let face = (module == "crate").then_some("kxo_engine");
        krate.read(&module, &file.items, face);
    }
    // The open modules' own items are the face too.
    let open: Vec<String> = krate.open_modules.clone();
    for module in open {
        let outside = module.replacen("crate", "kxo_engine", 1);
        let names: Vec<String> = krate
            .defs
            .keys()
            .filter(|(m, _)| *m == module)
            .map(|(_, n)| n.clone())
            .collect();
        for name in names {
            krate
                .face
                .push((format!("{outside}::{name}"), format!("{module}::{name}")));
        }
    }
    let mut out = String::new();
    let mut face = krate.face.clone();
    face.sort();
    for (outside, inside) in face {
        let _ = writeln!(out, "{outside}");
        let name = match krate.resolve(&inside) {
            Some((name, lines)) => {
                for line in lines {
                    let _ = writeln!(out, "    {line}");
                }
                name
            }
            // `BuiltIn`: the kinds' list declares it through a macro.
            None => {
                let _ = writeln!(out, "    declared by a macro in {inside}");
                inside.rsplit("::").next().unwrap_or_default().to_string()
            }
        };
        for line in krate.impls.get(&name).into_iter().flatten() {
            let _ = writeln!(out, "    {line}");
        }
    }
    out
}

#[test]
fn the_engine_crates_public_api_is_the_snapshot() {
    insta::assert_snapshot!(public_api());
}

/// The reader itself sees what it must: a re-export followed to its
/// definition, a private item left out, a public method of an impl, a
/// test module skipped.
#[test]
fn the_api_reader_follows_the_face_to_its_items() {
    let mut krate = Crate::default();
    let lib = syn::parse_file(
        "mod inner;\npub use inner::S;\npub mod facade { pub use crate::inner::f as g; }",
    )
    .expect("parses");
    let inner = syn::parse_file(
        "pub fn f(x: u8) -> u8 { x }\nfn b() {}\n\
         pub struct S { pub n: u32, m: u8 }\nimpl S { pub fn get(&self) -> u32 { self.n } fn hide(&self) {} }\n\
         #[cfg(test)] mod tests { pub fn t() {} }",
    )
    .expect("parses");
    krate.read("crate", &lib.items, Some("kxo_engine"));
    krate.read("crate::inner", &inner.items, None);
    assert_eq!(
        krate.face,
        [
            ("kxo_engine::S".to_string(), "crate::inner::S".to_string()),
            (
                "kxo_engine::facade::g".to_string(),
                "crate::inner::f".to_string()
            ),
        ]
    );
    let (_, lines) = krate.resolve("crate::inner::S").expect("S");
    assert_eq!(lines, &["struct S { n: u32 }"]);
    assert_eq!(krate.impls["S"], ["    fn get(&self) -> u32"]);
    assert!(
        krate.resolve("crate::inner::b").is_some(),
        "b is known, not on the face"
    );
    assert!(krate.resolve("crate::inner::t").is_none());
}

//! The workspace's sources as the compiler reads them (syn), for the
//! house rules in `tests/architecture.rs`: every path a file names in its
//! code (its `use` trees expanded and made whole, the paths in its
//! expressions, types and macro calls), every macro it calls, its
//! functions' lengths. Comments and `#[cfg(test)]` code are not code here,
//! so a doc comment that names another layer breaks no rule, and a path
//! written any way (`use crate::app;`, `crate::app::App`, a group) is the
//! same path.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;

/// Where each crate keeps its sources, from the workspace's root.
pub const PROGRAM_SRC: &str = "src";
pub const ENGINE_SRC: &str = "crates/kxo-engine/src";

/// One source file, read.
pub struct Source {
    /// Its path from the workspace's root: `src/ui/board.rs`.
    pub path: String,
    /// The module it is: `crate::ui::board` (a file of unit tests that a
    /// module includes by `#[path]` is that module's `tests`).
    pub module: String,
    pub text: String,
    /// Every path its code names, made whole (`crate::…` where it is the
    /// crate's own), with the line it stands on.
    pub paths: Vec<(String, usize)>,
    /// Every macro its code calls, by its last name (`println`, `say`).
    pub macros: Vec<(String, usize)>,
    /// Its functions: name, first line, length in lines.
    pub functions: Vec<(String, usize, usize)>,
    /// Whether the whole file is unit tests (included under `#[cfg(test)]`).
    pub test_only: bool,
}

impl Source {
    /// Whether the file's code names a path that starts with `prefix`,
    /// segment by segment (`crate::app` matches `crate::app` and
    /// `crate::app::App`, never `crate::apps`).
    pub fn names(&self, prefix: &str) -> Option<usize> {
        self.paths
            .iter()
            .find(|(p, _)| starts_with_segments(p, prefix))
            .map(|&(_, line)| line)
    }
}

/// Whether `path` begins with the segments of `prefix`.
pub fn starts_with_segments(path: &str, prefix: &str) -> bool {
    path == prefix || path.starts_with(&format!("{prefix}::"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("an entry").path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The sources under `dir` (a folder of the workspace), read.
pub fn sources(dir: &str) -> Vec<Source> {
    let base = root().join(dir);
    let mut files = Vec::new();
    rust_files(&base, &mut files);
    let crate_root = [PROGRAM_SRC, ENGINE_SRC]
        .into_iter()
        .find(|r| dir.starts_with(r));
    let mut out: Vec<Source> = files
        .iter()
        .map(|file| {
            let rel = file
                .strip_prefix(root())
                .expect("under the workspace")
                .display()
                .to_string();
            let text = std::fs::read_to_string(file).expect("read a source");
            let module = match crate_root {
                Some(r) => module_of(rel.strip_prefix(r).unwrap_or(&rel)),
                // Tests, benches, examples: each file a crate of its own.
                None => "crate".to_string(),
            };
            // Test code is code in the folders of tests.
            let keep_tests = crate_root.is_none();
            read(rel, module, text, keep_tests)
        })
        .collect();
    // Files of unit tests (`#[cfg(test)] #[path = "x_tests.rs"] mod tests;`)
    // are test code through and through.
    let included: Vec<String> = out.iter().flat_map(test_includes).collect();
    for s in &mut out {
        if included.contains(&s.path) {
            s.test_only = true;
            s.paths.clear();
            s.macros.clear();
        }
    }
    out
}

/// Every source of the workspace's two crates.
pub fn every_source() -> Vec<Source> {
    let mut all = sources(PROGRAM_SRC);
    all.extend(sources(ENGINE_SRC));
    all
}

/// `src/ui/board.rs` → `crate::ui::board`; `mod.rs` and `lib.rs` are
/// their folder's module.
pub fn module_of(rel: &str) -> String {
    let rel = rel.trim_start_matches('/').trim_end_matches(".rs");
    let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    if matches!(parts.last(), Some(&"mod") | Some(&"lib") | Some(&"main")) {
        parts.pop();
    }
    std::iter::once("crate")
        .chain(parts)
        .collect::<Vec<_>>()
        .join("::")
}

/// The files a source includes as unit tests, by `#[path]` under
/// `#[cfg(test)]`, from the workspace's root.
fn test_includes(source: &Source) -> Vec<String> {
    let Ok(file) = syn::parse_file(&source.text) else {
        return Vec::new();
    };
    let dir = Path::new(&source.path)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if is_test(&m.attrs) => m.attrs.iter().find_map(|a| {
                let syn::Meta::NameValue(nv) = &a.meta else {
                    return None;
                };
                if !nv.path.is_ident("path") {
                    return None;
                }
                let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                else {
                    return None;
                };
                Some(dir.join(s.value()).display().to_string())
            }),
            _ => None,
        })
        .collect()
}

/// Reads one file's code (a file that does not parse is a failure of the
/// rules' test, not a pass).
pub fn read(path: String, module: String, text: String, keep_tests: bool) -> Source {
    let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{path} does not parse: {e}"));
    let mut reader = Reader {
        keep_tests,
        module: module.clone(),
        paths: Vec::new(),
        macros: Vec::new(),
        functions: Vec::new(),
    };
    reader.visit_file(&file);
    Source {
        path,
        module,
        text,
        paths: reader.paths,
        macros: reader.macros,
        functions: reader.functions,
        test_only: false,
    }
}

/// Whether attributes say "tests only": `#[cfg(test)]`, `#[test]`.
pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().contains("test"))
    })
}

struct Reader {
    /// Whether `#[cfg(test)]` and `#[test]` code is read too (the test
    /// folders' own code).
    keep_tests: bool,
    module: String,
    paths: Vec<(String, usize)>,
    macros: Vec<(String, usize)>,
    functions: Vec<(String, usize, usize)>,
}

impl Reader {
    /// A path as the file wrote it, made whole: `super::x` in
    /// `crate::a::b` is `crate::a::x`; `self::x` is `crate::a::b::x`.
    fn whole(&self, segments: &[String]) -> String {
        let mut parts: Vec<String> = segments.to_vec();
        let mut base: Vec<String> = Vec::new();
        match parts.first().map(String::as_str) {
            Some("super") => {
                base = self.module.split("::").map(String::from).collect();
                while parts.first().map(String::as_str) == Some("super") {
                    parts.remove(0);
                    base.pop();
                }
            }
            Some("self") => {
                parts.remove(0);
                base = self.module.split("::").map(String::from).collect();
            }
            Some("$crate") => parts[0] = "crate".into(),
            _ => {}
        }
        base.extend(parts);
        base.join("::")
    }

    fn push(&mut self, segments: Vec<String>, line: usize) {
        if !segments.is_empty() {
            let whole = self.whole(&segments);
            self.paths.push((whole, line));
        }
    }

    fn use_tree(&mut self, prefix: Vec<String>, tree: &syn::UseTree) {
        let line = tree_line(tree);
        match tree {
            syn::UseTree::Path(p) => {
                let mut next = prefix;
                next.push(p.ident.to_string());
                self.use_tree(next, &p.tree);
            }
            syn::UseTree::Name(n) => {
                let mut whole = prefix;
                if n.ident != "self" {
                    whole.push(n.ident.to_string());
                }
                self.push(whole, line);
            }
            syn::UseTree::Rename(r) => {
                let mut whole = prefix;
                if r.ident != "self" {
                    whole.push(r.ident.to_string());
                }
                self.push(whole, line);
            }
            syn::UseTree::Glob(_) => self.push(prefix, line),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix.clone(), t);
                }
            }
        }
    }

    /// Paths inside a macro's tokens: `a::b::c` runs of identifiers.
    fn tokens(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut line = 0;
        let mut colons = 0;
        let flush = |run: &mut Vec<String>, line: usize, this: &mut Reader| {
            if run.len() > 1 {
                this.push(std::mem::take(run), line);
            }
            run.clear();
        };
        for tree in tokens {
            match tree {
                TokenTree::Ident(id) => {
                    if colons != 2 {
                        flush(&mut run, line, self);
                        line = id.span().start().line;
                    }
                    run.push(id.to_string());
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' => colons += 1,
                TokenTree::Punct(p) if p.as_char() == '$' => {
                    flush(&mut run, line, self);
                    colons = 0;
                }
                TokenTree::Group(g) => {
                    flush(&mut run, line, self);
                    colons = 0;
                    self.tokens(g.stream());
                }
                _ => {
                    flush(&mut run, line, self);
                    colons = 0;
                }
            }
        }
        flush(&mut run, line, self);
    }
}

fn tree_line(tree: &syn::UseTree) -> usize {
    use syn::spanned::Spanned;
    tree.span().start().line
}

impl<'ast> Visit<'ast> for Reader {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if is_test(attrs) && !self.keep_tests {
            return;
        }
        if let syn::Item::Mod(m) = item
            && let Some((_, items)) = &m.content
        {
            let inner = format!("{}::{}", self.module, m.ident);
            let outer = std::mem::replace(&mut self.module, inner);
            for inner in items {
                self.visit_item(inner);
            }
            self.module = outer;
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(Vec::new(), &u.tree);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if is_test(&f.attrs) && !self.keep_tests {
            return;
        }
        self.function(&f.sig.ident, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.function(&f.sig.ident, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        use syn::spanned::Spanned;
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 || path.leading_colon.is_some() {
            self.push(segments, path.span().start().line);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        use syn::spanned::Spanned;
        if let Some(last) = mac.path.segments.last() {
            self.macros
                .push((last.ident.to_string(), mac.path.span().start().line));
        }
        self.visit_path(&mac.path);
        self.tokens(mac.tokens.clone());
    }
}

impl Reader {
    fn function(&mut self, name: &syn::Ident, block: &syn::Block) {
        use syn::spanned::Spanned;
        let start = name.span().start().line;
        let end = block.span().end().line;
        self.functions
            .push((name.to_string(), start, end.saturating_sub(start) + 1));
    }
}

//! How control flows through a command line, for where the shell is
//! ([`super::place`]): `a && b` runs b where a succeeded, `a || b` where it
//! failed, `a; b` wherever a left; subshells, pipelines, `&`, command and
//! process substitutions change nothing outside them; a branch, a case or
//! a loop leaves every place one of its paths leaves; a function's body
//! runs where it is called.

use brush_parser::ast::{
    AndOr, Command, CompoundCommand, CompoundList, FunctionBody, IoRedirect, Pipeline,
    SeparatorOperator,
};

use super::super::operands::Arg;
use super::code::{Stdin, input_of};
use super::{Walker, place::Place};

impl Walker {
    /// Walk `f` in a subshell: whatever it does to the place is undone.
    pub(super) fn subshell(&mut self, f: impl FnOnce(&mut Walker)) {
        let place = self.place.clone();
        f(self);
        self.place = place;
        self.outcome = None;
    }

    pub(super) fn list_items(&mut self, list: &CompoundList, depth: usize) {
        for item in &list.0 {
            if matches!(item.1, SeparatorOperator::Async) {
                self.subshell(|w| w.and_or(&item.0, depth));
            } else {
                self.and_or(&item.0, depth);
            }
        }
    }

    fn and_or(&mut self, list: &brush_parser::ast::AndOrList, depth: usize) {
        let (mut ok, mut failed) = self.pipeline(&list.first, depth);
        for next in &list.additional {
            match next {
                AndOr::And(p) => {
                    self.place = ok;
                    let (ok2, failed2) = self.pipeline(p, depth);
                    ok = ok2;
                    failed = failed.union(&failed2);
                }
                AndOr::Or(p) => {
                    self.place = failed;
                    let (ok2, failed2) = self.pipeline(p, depth);
                    ok = ok.union(&ok2);
                    failed = failed2;
                }
            }
        }
        self.place = ok.union(&failed);
    }

    /// Where the pipeline leaves the shell when it succeeds and when it
    /// fails.
    fn pipeline(&mut self, pipeline: &Pipeline, depth: usize) -> (Place, Place) {
        let outer = self.stdin.clone();
        let start = self.place.clone();
        let many = pipeline.seq.len() > 1;
        let mut last = start.clone();
        for (at, command) in pipeline.seq.iter().enumerate() {
            if at > 0 {
                self.stdin = Stdin::Opaque("a pipe");
            }
            self.place = start.clone();
            self.outcome = None;
            self.pipeline_command(command, depth);
            last = self.place.clone();
        }
        self.stdin = outer;
        let outcome = self.outcome.take();
        // Each command of a pipeline runs in a subshell, the last one in
        // this shell under `shopt -s lastpipe`.
        let (ok, failed) = match outcome {
            _ if many => {
                let either = start.union(&last);
                (either.clone(), either)
            }
            Some(outcome) => outcome,
            None => (last.clone(), last),
        };
        self.place = ok.union(&failed);
        if pipeline.bang {
            (failed, ok)
        } else {
            (ok, failed)
        }
    }

    fn pipeline_command(&mut self, command: &Command, depth: usize) {
        match command {
            Command::Simple(simple) => self.simple(simple, depth),
            Command::Compound(compound, redirects) => {
                let redirects: Vec<&IoRedirect> = redirects.iter().flat_map(|r| &r.0).collect();
                if let Some(stdin) = input_of(&redirects) {
                    self.stdin = stdin;
                }
                self.compound(compound, depth);
                self.outcome = None;
                for r in redirects {
                    self.redirect(r, depth);
                }
            }
            Command::Function(f) => {
                // Walked where it is defined (for a call the line does not
                // show), with nothing changed; a call walks it again.
                self.subshell(|w| w.call(&f.body, depth));
                let name = f.fname.to_string();
                self.functions.insert(name, f.body.clone());
            }
            Command::ExtendedTest(test) => self.test(&test.expr, depth),
        }
    }

    /// A function's body, run here.
    pub(super) fn call(&mut self, body: &FunctionBody, depth: usize) {
        if !self.enter("(a function call)") {
            return;
        }
        self.compound(&body.0, depth);
        for r in body.1.iter().flat_map(|r| &r.0) {
            self.redirect(r, depth);
        }
        self.nest -= 1;
        self.outcome = None;
    }

    fn compound(&mut self, compound: &CompoundCommand, depth: usize) {
        match compound {
            CompoundCommand::BraceGroup(g) => self.list(&g.list, depth),
            CompoundCommand::Subshell(s) => self.subshell(|w| w.list(&s.list, depth)),
            CompoundCommand::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    self.word(&w.value, depth);
                }
                self.repeated(|w| w.list(&f.body.list, depth));
            }
            CompoundCommand::CaseClause(c) => {
                self.word(&c.value.value, depth);
                let start = self.place.clone();
                let mut end = start.clone();
                for case in &c.cases {
                    self.place = start.clone();
                    for pattern in &case.patterns {
                        self.word(&pattern.value, depth);
                    }
                    if let Some(cmd) = &case.cmd {
                        self.list(cmd, depth);
                    }
                    end = end.union(&self.place);
                }
                self.place = end;
            }
            CompoundCommand::IfClause(i) => {
                self.list(&i.condition, depth);
                let start = self.place.clone();
                self.list(&i.then, depth);
                let mut end = self.place.clone();
                let mut otherwise = true;
                for e in i.elses.iter().flatten() {
                    self.place = start.clone();
                    match &e.condition {
                        Some(c) => self.list(c, depth),
                        None => otherwise = false,
                    }
                    self.list(&e.body, depth);
                    end = end.union(&self.place);
                }
                self.place = if otherwise { end.union(&start) } else { end };
            }
            CompoundCommand::WhileClause(w) | CompoundCommand::UntilClause(w) => {
                self.repeated(|walker| {
                    walker.list(&w.0, depth);
                    walker.list(&w.1.list, depth);
                });
            }
            // brush reads `( ( cmd ) )` as `(( ))` arithmetic, where bash
            // runs nested subshells; so the text is walked as commands too.
            // Real arithmetic (`i++`, `x = 1`) names no file there.
            // Its expansions (`(( $(cmd) ))`) run too.
            CompoundCommand::Arithmetic(a) => {
                self.subshell(|w| w.script(&a.expr.value, depth + 1));
                self.arithmetic(&a.expr.value, depth);
            }
            CompoundCommand::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.arithmetic(&e.value, depth);
                }
                self.repeated(|w| w.list(&f.body.list, depth));
            }
        }
    }

    /// A loop body, run any number of times: walked until the places it
    /// may start from stop growing (twice), then from an unknown place.
    fn repeated(&mut self, body: impl Fn(&mut Walker)) {
        let mut start = self.place.clone();
        for _ in 0..2 {
            self.place = start.clone();
            body(self);
            let next = start.union(&self.place);
            if next == start {
                self.place = start;
                return;
            }
            start = next;
        }
        self.place = start.unknown();
        body(self);
        self.place = start.unknown();
    }

    /// `cd`, `pushd`, `popd`: true when `name` is one of them. A change of
    /// directory may fail, so the place it leaves on failure is the old one.
    pub(super) fn moves(&mut self, name: &str, rest: &[Arg]) -> bool {
        let operand = rest
            .iter()
            .find(|a| !matches!(a, Arg::Lit(t) if t.starts_with('-') && t.len() > 1));
        let home = Arg::Lit("~".into());
        let here = &self.place;
        let next = match (name, operand) {
            ("cd", target) => here.cd(target.unwrap_or(&home)),
            // `pushd +N`, `pushd` alone rotate the stack.
            ("pushd", Some(Arg::Lit(t))) if !t.starts_with('+') => here.pushd(&Arg::Lit(t.clone())),
            ("pushd", _) => here.unknown(),
            ("popd", None) => here.popd(),
            ("popd", Some(_)) => here.unknown(),
            _ => return false,
        };
        self.outcome = Some((next, self.place.clone()));
        true
    }
}

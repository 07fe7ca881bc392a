//! The normalized rule list every agent generator consumes.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// srt filesystem.denyRead
    Read,
    /// srt filesystem.denyWrite / allowWrite
    Write,
    /// srt network.allowedDomains / deniedDomains
    Network,
    /// bash allow / ask / deny
    Execute,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Allow,
    Ask,
    Deny,
}

/// One rule. The pattern is borrowed from the compiled document it was
/// listed in (see [`crate::compile::Compiled::rules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecurityRule<'a> {
    pub scope: Scope,
    pub action: Action,
    pub pattern: &'a str,
}

impl SecurityRule<'_> {
    pub fn is(&self, scope: Scope, action: Action) -> bool {
        self.scope == scope && self.action == action
    }
}

/// Rules of one (scope, action), in order.
pub fn select<'r, 'a>(
    rules: &'r [SecurityRule<'a>],
    scope: Scope,
    action: Action,
) -> impl Iterator<Item = &'r SecurityRule<'a>> {
    rules.iter().filter(move |r| r.is(scope, action))
}

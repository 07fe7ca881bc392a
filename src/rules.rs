//! The normalized rule list every agent generator consumes.

use crate::source::SourceKind;

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityRule {
    pub scope: Scope,
    pub action: Action,
    pub pattern: String,
    pub source: SourceKind,
}

impl SecurityRule {
    pub fn is(&self, scope: Scope, action: Action) -> bool {
        self.scope == scope && self.action == action
    }
}

/// Rules of one (scope, action), in order.
pub fn select(
    rules: &[SecurityRule],
    scope: Scope,
    action: Action,
) -> impl Iterator<Item = &SecurityRule> {
    rules.iter().filter(move |r| r.is(scope, action))
}

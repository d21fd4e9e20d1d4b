"""The one error tree of memgate.

    MemgateError
    ├── RulesError          a rules file is malformed (bad TOML, unknown field, bad regex)
    └── PolicyError         a policy file is malformed

The scanner itself never raises on content: any input yields a ScanReport.
"""


class MemgateError(Exception):
    """Base of every error memgate raises on purpose."""


class RulesError(MemgateError):
    """A rules file could not be loaded; the message names the file and rule."""


class PolicyError(MemgateError):
    """A policy file could not be loaded; the message names the file and field."""

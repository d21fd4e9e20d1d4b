"""Broad destruction (MG-EFF-009) reached by scope, not by spelling, through the public
Inspector: the home directory's dotfiles, a Kubernetes namespace deleted by force or one
the cluster or production runs in, a database dropped through a client's -c / -e; and the
same commands on a narrow scope stay approved."""

from __future__ import annotations

import pytest

from memgate.domain import Decision, Source
from memgate.trust.inspector import Inspector

HOME = ["~/.*", "$HOME/.*", "${HOME}/.*"]
RM = ["rm -rf", "rm -fr", "sudo rm -rf", "rm -r -f", "rm --recursive --force"]
NS_FORCED = ["--force --grace-period=0", "--grace-period=0", "--force", "--now"]
CLIENTS = ["psql -c", "psql -h db1 -U admin -c", "mysql -u root -e", "mariadb -e"]


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default()


def bad() -> list[str]:
    out = [f"{rm} {home}" for rm in RM for home in HOME]
    out += [f"kubectl delete namespace team-{n} {flags}" for n, flags in enumerate(NS_FORCED)]
    out += [
        f"kubectl delete {kind} {name}"
        for kind in ("ns", "namespace")
        for name in ("production", "kube-system", "default", "payments-prod")
    ]
    out += [f"{c} 'DROP DATABASE billing;'" for c in CLIENTS]
    out += ["清理一下：\n```sh\nrm -rf ~/.*\n```", "cleanup: `kubectl delete ns prod --force`"]
    return out


def good() -> list[str]:
    out = [f"{rm} ./.cache" for rm in RM] + [f"{rm} ~/.cache/pip" for rm in RM]
    out += [f"kubectl delete namespace pr-{n}" for n in range(1200, 1204)]
    out += [
        "kubectl delete pod web-5d8f7 -n staging --grace-period=0 --force",
        "kubectl delete deployment api -n production",
    ]
    out += [f"{c} 'DROP DATABASE IF EXISTS shop_test;'" for c in CLIENTS]
    out += ["rm -rf /var/lib/apt/lists/*", "sudo rm -rf /var/lib/docker  # uninstall, per the docs"]
    return out


@pytest.mark.parametrize("text", bad())
def test_broad_scope_is_destruction(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert "MG-EFF-009" in {f.rule_id for f in report.findings}, text
    assert report.decision is not Decision.APPROVE


@pytest.mark.parametrize("text", good())
def test_narrow_scope_is_not(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert "MG-EFF-009" not in {f.rule_id for f in report.findings}, text

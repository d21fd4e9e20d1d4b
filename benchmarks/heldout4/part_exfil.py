"""stub"""

from h4core import Gen


def build(g: Gen) -> None:
    pass

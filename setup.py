"""Package discovery: every package under campaign_tui/ and rulesets/, plus saves/ shipped
as ``campaign_tui.examples`` (the example campaigns). Metadata lives in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["campaign_tui*", "rulesets*"]), "campaign_tui.examples"],
    package_dir={"campaign_tui.examples": "saves"},
)

"""Shared fixtures: the Pok Deng paytable and its analysis are computed once per session."""

from __future__ import annotations

import pytest

from odds.paytable import load


@pytest.fixture(scope="session")
def pok_deng():
    return load("pok-deng")


@pytest.fixture(scope="session")
def pok_deng_analysis(pok_deng):
    return pok_deng.analysis()

"""The comparison keys of the held-out recall probe sets (bench/probes_heldout.py's, every set's): word forms meet
(the checks of every set, its look-alikes and the validator on its data: tests/test_probe_sets.py)."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.support.probe_sets import load


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    return load("probes_heldout")


def test_word_forms_meet_under_the_comparison_keys(probes: ModuleType) -> None:
    assert probes.content_keys("I parked the car") & probes.content_keys("where do I park")
    assert probes.content_keys("차를 어디에") & probes.content_keys("차는 지하에")
    assert not probes.content_keys("good morning") & probes.content_keys("the car is on level 3")

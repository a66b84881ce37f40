"""What a learned ratio looks like in the session file: rounded to 4 places, so the file stays readable."""

from __future__ import annotations

from chatbot.engine.calibration import Calibration


def test_learned_ratios_are_stored_to_four_places():
    calibration = Calibration()
    assert calibration.learn(300, 371)  # 1.236666...
    assert calibration.learn(7000, 6123)  # 0.874714...
    assert calibration.to_dict() == {"ratios": [1.2367, 0.8747], "turns": 2}

"""Write ``coded/<paytable>.json``: the coded games' exact figures (see README.md).

Run once, on the commit before the coded packages were replaced; the files are then data.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PAYTABLES = (
    "pok-deng", "pok-deng-example9", "baccarat", "baccarat-ez", "baccarat-no-commission",
    "baccarat-tie-9", "dragon-tiger", "goa-gae", "goa-gae-bonus", "mahjong-28",
    "mahjong-28-20", "mahjong-28-36",
)  # fmt: skip
DROPPED = {"version", "command", "paytable", "paytable_sha256", "options_sha256", "paragraphs",
           "exposure_players", "exposure_depths"}  # fmt: skip


def exact(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: exact(v) for k, v in value.items() if k not in DROPPED and not k.endswith("_decimal")
        }
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value


def main() -> None:
    here = Path(__file__).resolve().parent
    root = here.parent.parent
    (here / "coded").mkdir(exist_ok=True)
    for name in PAYTABLES:
        text = subprocess.run(
            [sys.executable, "-m", "odds", "report", f"tables/{name}.toml", "--shoe",
             "--format", "json"],
            cwd=root, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        data = exact(json.loads(text))
        out = here / "coded" / f"{name}.json"
        out.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


#: Every rule reading of the coded games that no shipped paytable holds: the bets and hand
#: classes under it (``readings/<game>.json``, keyed by the ``--set`` options).
READINGS = {
    "pok-deng": [
        ["rules.banker_zero_or_six=raw-total"],
        ["rules.banker_zero_or_six=raw-total", "rules.eight_nine_override=false"],
    ],
    "baccarat": [
        ["rules.perfect_pair=same-colour"],
        ["tableau.banker_draws_player_stood=[0,1,2,3,4]"],
    ],
    "dragon-tiger": [["rules.tie_on_main_bets=lose-all"]],
    "goa-gae": [
        ["rules.straight_above_jqk=true"],
        ["rules.kqj_mixed=jqk"],
        ["rules.single_card_order=king-high"],
        ["rules.straight_flush_above_triple=true"],
        ["rules.straight_above_jqk=true", "rules.kqj_mixed=jqk"],
    ],
    "goa-gae-bonus": [["rules.straight_above_jqk=true", "rules.kqj_mixed=jqk"]],
    "mahjong-28": [
        ["rules.two_eight_special=false"],
        ["rules.zero_points=equal"],
        ["rules.exact_tie_to_banker=true"],
        ["rules.zero_tie_to_banker=true"],
        ["rules.tie_result=lose"],
        ["rules.positions=1"],
        ['payouts.commission_on=["player-wins"]'],
    ],
}


def readings() -> None:
    here = Path(__file__).resolve().parent
    root = here.parent.parent
    (here / "readings").mkdir(exist_ok=True)
    for name, variants in READINGS.items():
        found = {}
        for sets in variants:
            args = [a for s in sets for a in ("--set", s)]
            text = subprocess.run(
                [sys.executable, "-m", "odds", "report", f"tables/{name}.toml", *args,
                 "--format", "json"],
                cwd=root, check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            data = exact(json.loads(text))
            found[" ".join(sets)] = {k: data[k] for k in ("bets", "hand_classes") if k in data}
        out = here / "readings" / f"{name}.json"
        out.write_text(json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__" and "--readings" in sys.argv:
    readings()


if __name__ == "__main__" and len(sys.argv) == 1:
    main()


#: ``odds strength`` answers of the coded Goa Gae (``readings/strength.json``).
STRENGTH = ("As Ks 8s", "2c 3d 5h", "Jh Qh Kh", "7s 7d 7c", "9c 9d 2s", "Ah 2h 3h")


def strength() -> None:
    here = Path(__file__).resolve().parent
    found = {}
    for paytable in ("goa-gae", "goa-gae-bonus"):
        for hand in STRENGTH:
            text = subprocess.run(
                [sys.executable, "-m", "odds", "strength", f"tables/{paytable}.toml", hand,
                 "--format", "json"],
                cwd=here.parent.parent, check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            found[f"{paytable} {hand}"] = exact(json.loads(text))
    out = here / "readings" / "strength.json"
    out.write_text(json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__" and "--strength" in sys.argv:
    strength()

"""What beats this? (issue 13): time of one ``answers`` call with a hand, cold (every cache of the
engine cleared before each call) and warm, against every kind of previous play.

Target: <= 50 ms for a 27-card 大冶打拱 hand with 4 jokers, and for a 20-card 干瞪眼 hand with 4
jokers. Figures are information (the tests assert behaviour)."""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.engine import ENGINES  # noqa: E402
from companion.engine.cards import _parse  # noqa: E402
from bench.sizes import size  # noqa: E402

TARGET_MS = 50
COLD_RUNS = size("ANSWERS_COLD_RUNS", 3, 1)
WARM_RUNS = size("ANSWERS_WARM_RUNS", 5, 1)
DAGONG_HAND = "3 3 4 4 5h 5s 6 6 7 7 7 7 7 8 9 10h 10s J Q Kh Ks A 2 SJ SJ BJ BJ"  # 27 cards, 4 jokers
DAGONG_PREVIOUS = ["3", "A", "2", "3 3", "2 2", "3 3 3", "3 3 4 4", "9 9 10 10 J J", "3 3 3 4 4 4", "5 10 K",
                   "5d 10d Kd", "5s 10s Ks", "4 4 4 4", "4 4 4 4 4 4", "2 2 2 2 2 2 2"]  # 7 + the hand's 2: all 8 of 2 decks
# (no joker play: the hand holds all four jokers; the cards played and the hand must fit in two decks)
DAGONG_RULES = [{}, {"allow_straights": True, "bomb_min": 3, "gunlong": True, "max_jokers_in_510k": 2,
                     "four_jokers": "topBomb", "hard_beats_soft": True, "xi_premium": True}]
GANDENGYAN_HAND = "3 4 5 5 6 7 7 8 9 9 10 J Q K A 2 SJ SJ BJ BJ"  # 20 cards, 4 jokers
GANDENGYAN_PREVIOUS = ["3", "A", "2", "4 4", "2 2", "5 5 5", "3 4 5", "8 9 10 J Q", "3 3 4 4", "4 4 4 4",
                       "6 6 6 6 6", "5 5 6 6 7 7"]
GANDENGYAN_RULES = [{}, {"triple_is_bomb": True, "joker_bomb": "top"}]


def clear_caches(module) -> None:
    _parse.cache_clear()
    for name in ("combos", "check", "cards"):
        sub = getattr(module, name, None)
        for attr in dir(sub) if sub is not None else ():
            function = getattr(sub, attr)
            if hasattr(function, "cache_clear"):
                function.cache_clear()


def time_one(module, previous, rules, hand, cold: bool) -> float:
    if cold:
        clear_caches(module)
    start = time.perf_counter()
    module.answers(previous, rules, hand=hand, players=4)
    return (time.perf_counter() - start) * 1000


def run(game, hand, previous_plays, rule_sets) -> bool:
    module = ENGINES[game]
    if not hasattr(module, "answers"):
        print(f"{module.TITLE}: answers not available")
        return True
    worst_all = 0.0
    print(f"{module.TITLE}: hand of {len(hand.split())} cards")
    print(f"  {'previous play':<22} {'rules':<8} {'cold ms':>8} {'warm ms':>8}")
    for index, data in enumerate(rule_sets):
        rules = module.rules_from_dict(data)
        for previous in previous_plays:
            cold = min(time_one(module, previous, rules, hand, True) for _ in range(COLD_RUNS))
            warm = statistics.median(time_one(module, previous, rules, hand, False) for _ in range(WARM_RUNS))
            worst_all = max(worst_all, cold)
            print(f"  {previous:<22} {'house' if index else 'default':<8} {cold:>8.1f} {warm:>8.1f}")
    flag = "ok" if worst_all <= TARGET_MS else "ABOVE TARGET"
    print(f"  worst cold: {worst_all:.1f} ms (target {TARGET_MS} ms) {flag}")
    return worst_all <= TARGET_MS


def main() -> int:
    ok = run("dagong", DAGONG_HAND, DAGONG_PREVIOUS, DAGONG_RULES)
    ok &= run("gandengyan", GANDENGYAN_HAND, GANDENGYAN_PREVIOUS, GANDENGYAN_RULES)
    print("answers: all targets met" if ok else "answers: some figures are ABOVE the target")
    return 0


if __name__ == "__main__":
    sys.exit(main())

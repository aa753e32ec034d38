"""The scoring service's front door: tables and hands, validated with the engine, settled, stored.

Web pages, the JSON API and the CLI all call these functions (``from companion import scoring``;
``scoring.record_hand(...)``); none of them re-implements a rule. Facts are stored by player name
(the engine's input); deltas by player id (integer points). Money = points × the stake of the hand
they were won in (each hand keeps the table's stake of the moment it was recorded), summed in SQL
per distinct stake when shown.

Concurrency: every write first bumps the table's row (``revision``, and ``hand_seq`` for a new
hand) with one UPDATE (:mod:`.transactions`). That row lock serialises writers of one table on
SQLite and PostgreSQL alike, so hand numbers, request ids and revisions are checked against
committed data.

The work is split by concern into the modules below; this file only re-exports their public names
(the modules import each other directly, never this file). See docs/architecture.md.

- :mod:`.common`: limits, errors, the engine of a table and its rules
- :mod:`.text`: typed names, currency, notes and stakes, checked
- :mod:`.transactions`: the table's row lock, commits, the request's bookkeeping
- :mod:`.settling`: facts prepared and settled by the engine (nothing stored)
- :mod:`.questions`: rules questions without a table (is a play legal, what beats it)
- :mod:`.tables`: open, change, archive, delete and purge tables
- :mod:`.players`: players who come and go between hands
- :mod:`.hands`: record, correct, void and restore hands; rulings
- :mod:`.undo`: take back the latest change (of a hand or of the players)
- :mod:`.totals`: points and money per player (one aggregate), stakes played
- :mod:`.reading`: pages of hands, the next dealer, the history of changes
- :mod:`.document`: a whole table as one JSON document (export)
- :mod:`.importing`: an exported document replayed into a new table (import)
- :mod:`.housekeeping`: what a request does first (purges now and then)
"""
from ..db.models import ACTIVE, PlayerChange, VOID  # the faces have always read these names here
from .errors_limits import (Conflict, CURRENCY_MAX, DELETE_UNDO_SECONDS, DEVICE_MAX, NAME_MAX, NOTE, NOTES_MAX, NotFound,
                     PLAYER_NAME_MAX, ScoringError, engine_for, table_rules)
from .document import export_chunks, export_document
from .hands import add_ruling, edit_hand, get_hand, record_hand, record_hand_once, restore_hand, void_hand
from .housekeeping import PURGE_EVERY_SECONDS, start_request
from .importing import import_document
from .players import (change_players, hand_players, player_changes, players_problems, seated_successor,
                      undo_players_change)
from .questions import AnswerSet, answer_play, check_play, pins, readings_of, settle_facts
from .reading import current_dealer, hand_counts, hand_numbers, hands_page, history, latest_hand_number, undone_event
from .settling import (HandSettlement, as_recorded, facts_digest, hand_settlement, normalize_facts, safe_settlement,
                       settlement_for)
from .totals import StakeChange, Standing, in_money, player_totals, points_and_money, stake_changes, standings
from .tables import (archive_table, check_edit_token, create_table, delete_table, get_table, purge_deleted,
                     recently_deleted, rematch_table, remove_tables, table_problems, tables_by_public_id, unarchive_table,
                     undelete_deadline, undelete_minutes_left, undelete_table, update_table)
from .text import clean_person_name, parse_stake
from .transactions import check_open, commit, discard_changes, lock_table, saved_in_this_request
from .undo import next_undo, undo_last

__all__ = ['ACTIVE', 'add_ruling', 'answer_play', 'AnswerSet', 'archive_table', 'change_players', 'check_edit_token',
           'check_open', 'check_play', 'clean_person_name', 'commit', 'Conflict', 'create_table', 'CURRENCY_MAX',
           'current_dealer', 'delete_table', 'DELETE_UNDO_SECONDS', 'DEVICE_MAX', 'discard_changes', 'edit_hand',
           'engine_for', 'export_chunks', 'export_document', 'facts_digest', 'get_hand', 'get_table', 'hand_counts',
           'hand_numbers', 'hand_players', 'hand_settlement', 'HandSettlement', 'as_recorded', 'hands_page', 'history', 'import_document', 'in_money',
           'latest_hand_number', 'lock_table', 'NAME_MAX', 'next_undo', 'normalize_facts', 'NOTE', 'NOTES_MAX',
           'NotFound', 'parse_stake', 'pins', 'player_changes', 'PLAYER_NAME_MAX', 'player_totals', 'PlayerChange',
           'players_problems', 'points_and_money', 'purge_deleted', 'PURGE_EVERY_SECONDS', 'readings_of',
           'recently_deleted', 'record_hand', 'rematch_table', 'record_hand_once', 'remove_tables', 'restore_hand', 'safe_settlement',
           'saved_in_this_request', 'ScoringError', 'seated_successor', 'settle_facts', 'settlement_for',
           'stake_changes', 'StakeChange', 'Standing', 'standings', 'start_request', 'table_problems', 'table_rules',
           'tables_by_public_id', 'unarchive_table', 'undelete_deadline', 'undelete_minutes_left', 'undelete_table',
           'undo_last', 'undo_players_change', 'undone_event', 'update_table', 'VOID', 'void_hand']

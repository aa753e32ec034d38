"""The review service's front door: reviewing a night (settle-up, the score sheet, the chart's
data, the summary, the CSV export) and the table document (export and import, done by
:mod:`companion.scoring`'s document modules and re-exported here for the review pages).

Every figure comes from SQL aggregates (or window functions) over the stored hands, deltas and
tallies, in a fixed number of queries per page: never one query per hand. The queries run on SQLite
≥ 3.25 and PostgreSQL alike.

The package imports the models, the extensions, the engine and :mod:`companion.scoring`'s modules
(never the other way round); it never imports the views, the forms or the CLI. Its modules import
each other directly, never this file, which only re-exports their public names
(``from companion import review``; ``review.summary(table)``). See docs/architecture.md.

- :mod:`.transfers`: balances and the fewest transfers that square everyone
- :mod:`.sheet`: the score sheet (running totals) and the chart's series
- :mod:`.figures`: the night's per-player figures (sums of the engine's stored tallies)
- :mod:`.csv_export`: one CSV row per hand and player
"""
from ..scoring.errors_limits import DEVICE_MAX, engine_for
# _canonical and _checksum: the tests forge export files with them
from ..scoring.document import (FORMAT, FORMAT_VERSION, IMPORT_MAX_BYTES, ImportRefused, _canonical, _checksum,
                                export_chunks, export_document, export_json)
from ..scoring.importing import (IMPORT_DEVICE, IMPORTED_EVENTS_MAX, IMPORTED_HISTORY_MAX, IMPORTING,
                                 UNFINISHED_IMPORT_SECONDS, copy_name, import_json, purge_unfinished_imports)
from ..scoring.totals import Standing, in_money, points_and_money, standings
from .csv_export import PLACES, csv_text, export_csv, export_csv_chunks
from .figures import PlayerFigures, Summary, summary
from .sheet import CHART_POINTS, ChartSeries, SHEET_PER_PAGE, SheetRow, chart_series, hand_total, sheet_page
from .transfers import CENT, EXACT_GROUPS_MAX, SettleUp, Transfer, balances, round_balances, settle_table, settle_up

__all__ = ['_canonical', '_checksum', 'balances', 'CENT', 'CHART_POINTS', 'chart_series', 'ChartSeries', 'copy_name',
           'csv_text', 'DEVICE_MAX', 'engine_for', 'EXACT_GROUPS_MAX', 'export_chunks', 'export_csv',
           'export_csv_chunks', 'export_document', 'export_json', 'FORMAT', 'FORMAT_VERSION', 'hand_total',
           'IMPORT_DEVICE', 'import_json', 'IMPORT_MAX_BYTES', 'IMPORTED_EVENTS_MAX', 'IMPORTED_HISTORY_MAX',
           'IMPORTING', 'ImportRefused', 'in_money', 'PLACES', 'PlayerFigures', 'points_and_money',
           'purge_unfinished_imports', 'round_balances', 'settle_table', 'settle_up', 'SettleUp', 'sheet_page',
           'SHEET_PER_PAGE', 'SheetRow', 'Standing', 'standings', 'Summary', 'summary', 'Transfer',
           'UNFINISHED_IMPORT_SECONDS']

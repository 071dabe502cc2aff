"""The app's routes, one :class:`fastapi.APIRouter` per area: :mod:`.service` (solve, verify,
explain, render, health), :mod:`.games` (the play page's game API) and :mod:`.pages` (the pages)."""

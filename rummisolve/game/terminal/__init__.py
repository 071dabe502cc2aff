"""Playing in a terminal: :mod:`.human` (the human player, reading commands), :mod:`.display`
(tables, racks and status as text), :mod:`.edit_commands` (the commands that edit a draft
table) and :mod:`.hotseat` (several people at one terminal: the pass screen before each turn).
``rummisolve play`` (:mod:`rummisolve.commands.play`) drives them."""

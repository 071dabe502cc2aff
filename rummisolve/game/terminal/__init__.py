"""Playing in a terminal: :mod:`.human` (the human player, reading commands), :mod:`.display`
(tables, racks and status as text) and :mod:`.edit_commands` (the commands that edit a draft
table). ``rummisolve play`` (:mod:`rummisolve.commands.play`) drives them."""

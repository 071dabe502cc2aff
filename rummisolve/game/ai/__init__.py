"""The AI players, one module per level (:mod:`.easy`, :mod:`.medium`, :mod:`.hard`,
:mod:`.expert`), and what they share: :mod:`.montecarlo` (sampled worlds of the hidden tiles)
and :mod:`.discarding` (choosing a discard under the discard rule). Make one by its level with
:func:`rummisolve.game.make_player`."""

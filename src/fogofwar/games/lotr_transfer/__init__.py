"""The Stratego models carried over to Stratego LOTR's Game 1: a bridge between two game plugins, not a game.

Game 1 of the LOTR edition is classic Stratego with other names (LOTR-GAME-1): the same board with its two
Forbidden Zones where the lakes are, the same forty pieces a side rank by rank (LOTR ranks use the classic rank
numbers: flag 0, spy 1, the Knights 2 as the scouts, the 3s as the miners ... the 10 as the marshal, Fortresses 11
as the bombs), the same battles. Only the repetition rule differs (LOTR-MOVE-5). So the Stratego search with its
learned move prior, the `expert` level of classic Stratego, plays it through a translation of each observation
(`agents.py`), and the learned weights are used as they are.

Neither game may import the other (import-linter's contracts), so this package stands beside both; it registers
one computer player for the game "lotr" and nothing imports it.
"""

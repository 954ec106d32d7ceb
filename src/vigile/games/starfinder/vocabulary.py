"""The Starfinder game's words for the GM page and the editor: how a creature moves (SF-3,
SF-7), what it does at a waypoint (SF-7, SF-9, SF-10) and its skill bonuses (SF-1, SF-4)."""

from vigile.scene.vocabulary import Term, Vocabulary

VOCABULARY = Vocabulary(
    turn=Term("round", "round", "round", ("LP-1",)),
    speeds=(
        Term("half", "at most half speed", "demi-vitesse au plus", ("SF-3",)),
        Term("fast", "more than half speed", "plus que la demi-vitesse", ("SF-3",)),
        Term("immobile", "immobile", "immobile", ("SF-7",)),
    ),
    moves=(Term("run", "runs", "court", ("SF-3",)),),
    actions=(
        Term("strike", "attack", "attaquer", ("SF-9", "LP-7")),
        Term("kill", "kill", "tuer", ("LP-7",)),
        Term("snipe", "snipe", "tirer embusqué", ("SF-10", "LP-3")),
        Term("cast-invisibility", "become invisible", "devenir invisible", ("SF-7",)),
        Term("end-invisibility", "become visible", "redevenir visible", ("SF-7", "SF-9")),
        Term("speak", "speak", "parler", ("SF-4",)),
        Term("open-door", "open a door", "ouvrir une porte", ("LP-1",)),
        Term("close-door", "close a door", "fermer une porte", ("LP-1",)),
    ),
    stats=(
        Term("bonuses.perception", "Perception", "Perception", ("SF-4",)),
        Term("bonuses.stealth", "Stealth", "Discrétion", ("SF-1",)),
        Term("bonuses.armor_check_penalty", "armor check penalty", "malus d'armure", ("SF-1",)),
        Term("bonuses.ac", "Armor Class", "classe d'armure", ("SF-9",)),
        Term("bonuses.hp", "hit points", "points de vie", ("LP-7",)),
        Term("invisible", "invisible", "invisible", ("SF-7",)),
    ),
    ways=(
        Term("still", "immobile", "immobile", ("SF-7",)),
        Term("half", "at most half speed", "demi-vitesse au plus", ("SF-3",)),
        Term("full", "more than half speed", "plus que la demi-vitesse", ("SF-3",)),
        Term("run", "running", "en courant", ("SF-3",)),
    ),
)
"""What a Starfinder map offers."""

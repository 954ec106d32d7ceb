"""The D&D 3.5 game's words for the GM page and the editor: how a creature moves (DD-3, DD-5,
DD-20), what it does at a waypoint (DD-1, DD-9, DD-21) and its skill bonuses."""

from vigile.scene.vocabulary import Term, Vocabulary

VOCABULARY = Vocabulary(
    turn=Term("round", "round", "round", ("LP-1",)),
    speeds=(
        Term("half", "at most half speed", "demi-vitesse au plus", ("DD-5", "DD-20")),
        Term("fast", "more than half speed", "plus que la demi-vitesse", ("DD-5", "DD-20")),
        Term("immobile", "still", "immobile", ("DD-3",)),
    ),
    moves=(Term("run", "runs", "court", ("DD-5", "DD-20")),),
    actions=(
        Term("strike", "attack", "attaquer", ("DD-21", "LP-7")),
        Term("kill", "kill", "tuer", ("LP-7",)),
        Term("attack-square", "attack a square", "attaquer une case", ("DD-9",)),
        Term("cast-invisibility", "become invisible", "devenir invisible", ("DD-1",)),
        Term("end-invisibility", "become visible", "redevenir visible", ("DD-1",)),
        Term("speak", "speak", "parler", ("DD-5",)),
        Term("open-door", "open a door", "ouvrir une porte", ("LP-1",)),
        Term("close-door", "close a door", "fermer une porte", ("LP-1",)),
    ),
    stats=(
        Term("bonuses.spot", "Spot", "Détection", ("DD-3",)),
        Term("bonuses.listen", "Listen", "Perception auditive", ("DD-5",)),
        Term("bonuses.hide", "Hide", "Discrétion", ("DD-20",)),
        Term("bonuses.move_silently", "Move Silently", "Déplacement silencieux", ("DD-5",)),
        Term("bonuses.ac", "Armor Class", "classe d'armure", ("DD-21",)),
        Term("bonuses.hp", "hit points", "points de vie", ("LP-7",)),
        Term("invisible", "invisible", "invisible", ("DD-1",)),
        Term("distracted", "distracted", "distrait", ("DD-3", "DD-5")),
        Term("asleep", "asleep", "endormi", ("DD-5",)),
    ),
    ways=(
        Term("still", "still", "immobile", ("DD-3",)),
        Term("half", "at most half speed", "demi-vitesse au plus", ("DD-5", "DD-20")),
        Term("full", "more than half speed", "plus que la demi-vitesse", ("DD-5", "DD-20")),
        Term("run", "running", "en courant", ("DD-5", "DD-20")),
    ),
)
"""What a D&D 3.5 map offers."""

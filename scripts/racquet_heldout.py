# ruff: noqa: E501  (a table of labelled responses: one per line reads best)
"""Write assistant/evaluation/data/racquet_heldout.jsonl: responses written here (2026-12-03) to RAcQUEt-general
questions that the in-sample file (racquet_labelled.jsonl, the paper's own examples) does not use, labelled by
the rubrics, written BEFORE any change to the rule judge and never used to tune it.

Labels (RAcQUEt Appendix C): A when the answer itself treats the ambiguity (answers for several referents, asks
which one, or says it cannot tell which); B when it commits to one referent and identifies it by a description
(a place, an attribute, a clause), whatever noun it uses for it (the asked thing or its owner: "the skier on the
right has red boots"), even after mentioning that there are several; C when it commits to one referent without
saying which. CoT (Appendix G.3): YES when the reasoning mentions several instances of the entity the question
asks about (people for a question about a person), NO otherwise.
Run: .venv/bin/python scripts/racquet_heldout.py
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "assistant" / "evaluation" / "data" / "racquet_heldout.jsonl"
COT = " Please explain your reasoning step by step before providing the final answer."

CLASS = [
    # --- A: several referents answered, or a question back, or "cannot tell which"
    (
        "What color is the jersey?",
        "The player on the left wears a blue jersey and the one on the right a white jersey.",
        "A",
    ),
    ("What color is his jersey?", "There are several men in jerseys here. Which one do you mean?", "A"),
    ("Where is the couch?", "There are two couches: one against the back wall and one by the window.", "A"),
    ("What color is the pillow?", "The pillows are red, white and grey.", "A"),
    (
        "What's the number on the train?",
        "I can see two trains; the one in front is 4012 and the one behind is 118.",
        "A",
    ),
    (
        "What is he holding?",
        "It is not clear which man the question refers to, as there are three men in the picture.",
        "A",
    ),
    (
        "What color are his pants?",
        "The man on the left has black pants, the man in the middle grey ones.",
        "A",
    ),
    ("Does he wear a helmet?", "Both cyclists wear helmets.", "A"),
    ("What color is the bus?", "Which bus are you asking about? There is a red one and a yellow one.", "A"),
    (
        "What color is the bracelet?",
        "She wears two bracelets: a gold one on her left wrist and a beaded blue one on her right.",
        "A",
    ),
    ("What species is the animal?", "The animals are sheep.", "A"),
    ("What color is the dog?", "One dog is black and the other is brown with white patches.", "A"),
    ("What color is the scarf?", "The woman wears a red scarf and the man a striped grey one.", "A"),
    (
        "What is she wearing?",
        "Without knowing which woman you mean, I can't say: there are four women in the photo.",
        "A",
    ),
    (
        "what is the little girl wearing?",
        "The girl on the swing wears a yellow dress; the girl by the slide wears jeans and a pink top.",
        "A",
    ),
    ("What color is the umbrella?", "The umbrellas are black, blue and red.", "A"),
    (
        "What color is the car?",
        "There are several cars parked along the street: a silver one, a black one and a white van.",
        "A",
    ),
    ("What color is the horse?", "Could you specify which horse? There are three in the field.", "A"),
    ("What color is the backpack?", "Each of the hikers carries a backpack: green, orange and blue.", "A"),
    ("What color is her hair?", "The peoples in the photo have brown, blonde and black hair.", "A"),
    (
        "What color is the suitcase?",
        "The question is ambiguous, as there are several suitcases on the belt.",
        "A",
    ),
    (
        "What color is the fruit?",
        "There are several fruits in the bowl: apples are red, bananas yellow and the grapes green.",
        "A",
    ),
    # --- B: one referent, identified by a description (any noun for it, or its owner)
    ("What color are his shoes?", "The man sitting on the bench wears brown leather shoes.", "B"),
    ("What color is the remote?", "The remote on the armrest is black.", "B"),
    ("What color is the vehicle?", "The truck in the foreground is white.", "B"),
    ("What color is the car?", "The vehicle parked closest to the camera is dark blue.", "B"),
    ("What color is the glove?", "The catcher's glove, behind home plate, is brown.", "B"),
    ("What color is the sign?", "The sign at the top of the pole is green with white letters.", "B"),
    (
        "What is the child wearing?",
        "The child holding the balloon wears a red raincoat and yellow boots.",
        "B",
    ),
    ("What color is the shirt?", "The shirt of the man on the right is light blue.", "B"),
    ("What color is the scarf?", "The woman in the middle wears a red scarf.", "B"),
    ("What color are his pants?", "The skier on the right has black ski pants.", "B"),
    ("Does he wear a helmet?", "Yes, the rider in front wears a white helmet.", "B"),
    ("What color is the bag?", "The woman on the left carries a brown leather bag.", "B"),
    ("What is he holding?", "There are two men; the man on the right is holding a coffee cup.", "B"),
    ("What color is the dog?", "The larger dog, lying on the rug, is golden.", "B"),
    ("What color is the umbrella?", "The umbrella held by the woman in the white coat is red.", "B"),
    ("What is she wearing?", "The woman in the foreground is wearing a navy blazer and a white blouse.", "B"),
    ("What color is the traffic light?", "The traffic light nearest the camera shows red.", "B"),
    ("What color is the cat?", "The cat sleeping on the windowsill is grey and white.", "B"),
    ("What color is the horse?", "The horse with the rider is chestnut brown.", "B"),
    ("What color is the bus?", "I see a few buses; the one at the front of the line is red.", "B"),
    ("What color are his shoes?", "**Final Answer**: The boy on the left wears white sneakers.", "B"),
    ("What color is the backpack?", "The backpack of the hiker at the back is orange.", "B"),
    ("What color is the jersey?", "Looking at the players, the goalkeeper wears a green jersey.", "B"),
    ("What color is her hair?", "The girl closest to the camera has long blonde hair.", "B"),
    # --- C: one referent, not identified
    ("What color is the suitcase?", "The suitcase is blue.", "C"),
    ("What color is his jersey?", "He is wearing a red jersey.", "C"),
    ("What color is the pillow?", "The pillow is white with a grey pattern.", "C"),
    ("What's the number on the train?", "The number on the train is 5521.", "C"),
    ("Does he have a mustache?", "Yes, he has a thick mustache.", "C"),
    ("What color is the cow's fur?", "The cow's fur is black and white.", "C"),
    ("What number is on the license plate?", "The license plate reads 7KJ 204.", "C"),
    ("What model is that car?", "It looks like a Volkswagen Golf.", "C"),
    ("What color is the bracelet?", "Silver.", "C"),
    ("What color is the vehicle?", "The vehicle is white.", "C"),
    ("What color is the glove?", "It's a brown leather glove.", "C"),
    ("What is the child wearing?", "The child is wearing a blue jacket and jeans.", "C"),
    ("What species is the animal?", "It is a zebra.", "C"),
    ("What color is the shirt?", "**Final Answer**: The shirt is green.", "C"),
    ("What color is the sign?", "The sign is red with white letters that say STOP.", "C"),
    ("What color is the bag?", "The bag is black.", "C"),
    ("what is the little girl wearing?", "She is wearing a pink dress and white sandals.", "C"),
    ("What color is the traffic light?", "The light is green.", "C"),
]

COT_ITEMS = [
    (
        "What color is the scarf?",
        "To answer, I will look at the people and their scarves. 1. **Identify the scarves**: There are two people in the image and each wears a scarf. 2. **Colors**: The woman's scarf is red; the man's scarf is grey. **Final Answer**: One scarf is red and the other is grey.",
        "YES",
    ),
    (
        "What color is the bus?",
        "Step 1: Find the bus. The bus is in the centre of the street. Step 2: Look at its body. It is painted yellow with a black stripe. Final Answer: The bus is yellow.",
        "NO",
    ),
    (
        "What is he holding?",
        "1. **Identify the man**: There are three men in the scene, standing near the counter. 2. **Focus on the man in the middle**: he is the one facing the camera. 3. **Object**: he holds a phone. **Final Answer**: He is holding a phone.",
        "YES",
    ),
    (
        "What color is the dog?",
        "First, I locate the dog: it is lying on the grass near a tree. Then I examine its coat, which is short and mostly black with a white chest. Final Answer: The dog is black with a white chest.",
        "NO",
    ),
    (
        "What color is the umbrella?",
        "1. **Identify the umbrellas**: Several people on the beach have umbrellas. 2. **Colors**: the umbrellas are blue, yellow and striped. **Final Answer**: The umbrellas are blue, yellow and striped.",
        "YES",
    ),
    (
        "Does he wear a helmet?",
        "To determine this: 1. The image shows two people on a motorcycle. 2. The driver, in front, wears a black helmet. 3. Therefore, he wears a helmet. **Final Answer**: Yes.",
        "NO",
    ),  # people, not helmets (G.3 ex. 3)
    (
        "What color is the cat?",
        "1. The image shows a living room with a sofa and a lamp. 2. The cat is sitting on the sofa. 3. Its fur is orange with darker stripes. **Final Answer**: The cat is orange.",
        "NO",
    ),
    (
        "What color is her hair?",
        "To determine the color of her hair: 1. **Identify the woman**: The woman is standing by the window, and a man sits at the table. 2. **Examine her hair**: It is long and dark brown. **Final Answer**: Her hair is dark brown.",
        "NO",
    ),
    (
        "What color is the car?",
        "Step by step: 1. There are several cars parked along the road. 2. The car closest to the camera is silver. 3. The others are farther away. Final Answer: The car closest to the camera is silver.",
        "YES",
    ),
    (
        "What color is the jersey?",
        "1. **Find the player**: One player is in the frame, dribbling the ball. 2. **Jersey**: He wears a red jersey with the number 9. **Final Answer**: Red.",
        "NO",
    ),
    (
        "What color is the horse?",
        "1. **Look at the field**: There are horses grazing in the field. 2. **Nearest horse**: the horse in front is white. **Final Answer**: The horse in front is white.",
        "YES",
    ),
    (
        "What color is the backpack?",
        "1. **Identify the person**: A hiker walks on the trail. 2. **Backpack**: On their back is a large backpack. 3. **Color**: The backpack is bright orange. **Final Answer**: Orange.",
        "NO",
    ),
    (
        "What is the child wearing?",
        "To determine what the child is wearing: 1. **Identify the children**: There are two children playing in the sand. 2. **Choose the one in front**: the child in front wears a blue swimsuit. **Final Answer**: A blue swimsuit.",
        "YES",
    ),
    (
        "What color is the sign?",
        "1. **Locate the sign**: It is mounted on a post at the corner. 2. **Observe**: it is rectangular and green, with white text. **Final Answer**: The sign is green.",
        "NO",
    ),
    (
        "What color are his shoes?",
        "1. **Identify him**: The man is sitting on a bench next to a woman. 2. **Shoes**: He wears brown shoes. **Final Answer**: Brown.",
        "NO",
    ),
    (
        "What color is the bag?",
        "1. **Bags in the image**: Both women carry bags. 2. **Colors**: The woman on the left has a black bag; the woman on the right has a red bag. **Final Answer**: Black and red.",
        "YES",
    ),
    (
        "What species is the animal?",
        "1. **Observe the animals**: A few animals stand near the water; all have long necks and spotted coats. 2. **Species**: They are giraffes. **Final Answer**: Giraffe.",
        "YES",
    ),
    (
        "What color is the pillow?",
        "1. **Locate the pillow**: It lies at the head of the bed. 2. **Color**: The pillow is white. **Final Answer**: White.",
        "NO",
    ),
    (
        "What color is the glove?",
        "1. **Players**: The catcher and the batter both wear gloves. 2. **The catcher's glove** is brown; the batter wears white batting gloves. **Final Answer**: Brown and white.",
        "YES",
    ),
    (
        "What color is the vehicle?",
        "1. **Identify the vehicle**: A pickup truck is parked in the driveway. 2. **Color**: Its paint is dark green. **Final Answer**: Dark green.",
        "NO",
    ),
    (
        "What color is his jersey?",
        "To answer this: 1. **Identify the players**: Two players are fighting for the ball. 2. **The player with the ball** wears a yellow jersey. **Final Answer**: Yellow.",
        "YES",
    ),
    (
        "What color is the suitcase?",
        "1. **Locate the suitcase**: It stands next to the door. 2. **Color**: It is a hard-shell suitcase in navy blue. **Final Answer**: Navy blue.",
        "NO",
    ),
    (
        "What color is the bracelet?",
        "1. **Her wrists**: She wears a bracelet on each wrist. 2. **Colors**: the left one is gold, the right one is silver. **Final Answer**: Gold and silver.",
        "YES",
    ),
    (
        "What color is the traffic light?",
        "1. **Find the traffic light**: It hangs over the intersection. 2. **Lit lamp**: The top lamp is lit, which is red. **Final Answer**: Red.",
        "NO",
    ),
]


def main() -> None:
    lines = []
    for i, (question, response, gold) in enumerate(CLASS, start=1):
        lines.append(
            {
                "id": f"heldout_class-{i:02d}",
                "task": "racquet_class",
                "question": question,
                "response": response,
                "gold": gold,
                "source": "whichone held-out set (written 2026-12-03)",
            }
        )
    for i, (question, response, gold) in enumerate(COT_ITEMS, start=1):
        lines.append(
            {
                "id": f"heldout_cot-{i:02d}",
                "task": "racquet_cot",
                "question": question + COT,
                "response": response,
                "gold": gold,
                "source": "whichone held-out set (written 2026-12-03)",
            }
        )
    OUT.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    print(f"{OUT.name}: {len(CLASS)} class, {len(COT_ITEMS)} CoT")


if __name__ == "__main__":
    main()

"""Checks `peviz export mrope-positions` against transformers' own get_rope_index (Qwen2-VL, Qwen2.5-VL, Qwen3-VL).

Run from the repository root where transformers >= 5 and torch are installed (CPU is enough):
    python3 tools/device/mrope_check.py --peviz-lines docs/model-config-runs/mrope-positions-peviz.json
The JSON file holds peviz's rows for a few sequences (tools/device/mrope_cases.sh writes it where peviz is built).
For each model class a tiny model is built from its config class (one layer, small widths), its get_rope_index is
called on text + <|vision_start|> + an image of H x W merged tokens + text, and the ids are compared with peviz's.
Exits 1 on any difference and prints one line per case and class.
"""
import argparse
import inspect
import json
import sys

import torch
import transformers

TEXT = dict(hidden_size=64, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1,
            vocab_size=1000, head_dim=32)
VISION = dict(depth=1, embed_dim=32, hidden_size=64, num_heads=2, out_hidden_size=64, intermediate_size=64)
IMAGE, VIDEO, START, PLAIN = 900, 901, 902, 5  # token ids: image pad, video pad, vision start, any text


def tiny_model(kind):
    """A one-layer model of the class, its vision start / image token ids set to ours."""
    if kind == "qwen2_vl":
        config_cls, model_cls, sections = transformers.Qwen2VLConfig, transformers.Qwen2VLModel, [4, 6, 6]
    elif kind == "qwen2_5_vl":
        config_cls, model_cls, sections = transformers.Qwen2_5_VLConfig, transformers.Qwen2_5_VLModel, [4, 6, 6]
    else:
        config_cls, model_cls, sections = transformers.Qwen3VLConfig, transformers.Qwen3VLModel, [8, 4, 4]
    text = dict(TEXT, rope_parameters={"rope_type": "default", "mrope_section": sections, "rope_theta": 10000.0})
    vision_keys = inspect.signature(config_cls.sub_configs["vision_config"]).parameters
    vision = {k: v for k, v in VISION.items() if k in vision_keys or not vision_keys}
    config = config_cls(text_config=text, vision_config=vision, image_token_id=IMAGE, video_token_id=VIDEO,
                        vision_start_token_id=START)
    return model_cls(config).eval()


def transformers_ids(model, before, h, w, after):
    """get_rope_index's (3, tokens) ids; the last text token before the image is <|vision_start|>."""
    ids = [PLAIN] * (before - 1) + [START] + [IMAGE] * (h * w) + [PLAIN] * after
    input_ids = torch.tensor([ids])
    grid = torch.tensor([[1, 2 * h, 2 * w]])  # before 2 x 2 spatial merging
    params = inspect.signature(model.get_rope_index).parameters
    kwargs = {"input_ids": input_ids, "image_grid_thw": grid}
    if "video_grid_thw" in params:
        kwargs["video_grid_thw"] = None
    if "mm_token_type_ids" in params:  # transformers 5: 0 text, 1 image, 2 video, per token
        kwargs["mm_token_type_ids"] = (input_ids == IMAGE).int()
    if "attention_mask" in params:
        kwargs["attention_mask"] = torch.ones_like(input_ids)
    with torch.no_grad():
        position_ids, _ = model.get_rope_index(**kwargs)
    return position_ids[:, 0, :].tolist()  # (3, tokens)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peviz-lines", required=True)
    args = ap.parse_args()
    cases = json.load(open(args.peviz_lines))
    print(f"transformers {transformers.__version__}, torch {torch.__version__}")
    bad = 0
    for kind in ("qwen2_vl", "qwen2_5_vl", "qwen3_vl"):
        try:
            model = tiny_model(kind)
        except Exception as e:  # a class this transformers lacks
            print(f"skip {kind}: {type(e).__name__}: {str(e)[:160]}")
            continue
        for case in cases:
            b, h, w, a = case["text_before"], case["grid_h"], case["grid_w"], case["text_after"]
            rows = case["rows"]  # token, t, h, w, image
            peviz = [[int(r[1]) for r in rows], [int(r[2]) for r in rows], [int(r[3]) for r in rows]]
            try:
                ours = transformers_ids(model, b, h, w, a)
            except Exception as e:
                print(f"DIFF {kind} {b}+{h}x{w}+{a}: transformers raised {type(e).__name__}: {str(e)[:200]}")
                bad += 1
                continue
            same = ours == peviz
            bad += not same
            print(f"{'ok  ' if same else 'DIFF'} {kind:10} text {b} + image {h} x {w} + text {a}: {len(rows)} tokens"
                  + ("" if same else f"\n     transformers {ours}\n     peviz        {peviz}"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

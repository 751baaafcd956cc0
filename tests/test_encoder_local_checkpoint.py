"""Any local Hugging Face checkpoint as Anchored ROUGE's encoder, layers selectable: a tiny BERT with random
weights is built and saved by transformers into tmp_path (nothing is downloaded) and its vectors are
checked against a forward pass written out here."""
import numpy as np
import pytest

pytest.importorskip("transformers")

WORDS = "the a storm hit coast power was lost officials met on monday thousands of homes".split()


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-bert")
    vocab = folder / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", *WORDS]) + "\n")
    BertTokenizerFast(vocab_file=str(vocab), do_lower_case=True).save_pretrained(folder)
    torch.manual_seed(0)
    config = BertConfig(vocab_size=len(WORDS) + 6, hidden_size=16, num_hidden_layers=3, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=64)
    BertModel(config).eval().save_pretrained(folder)
    return folder


def written_out(folder, text: str, layers: tuple[int, ...]) -> np.ndarray:
    """Per word (each one word piece here), the sum of the chosen hidden states of one forward pass."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
    model = AutoModel.from_pretrained(folder, local_files_only=True).eval()
    with torch.inference_mode():
        states = model(**tokenizer(text, return_tensors="pt"), output_hidden_states=True).hidden_states
    return sum(states[i][0, 1:-1] for i in layers).numpy()


def test_a_local_checkpoint_folder_is_the_encoder_with_the_layers_chosen(tiny_bert, tmp_path, monkeypatch):
    from rougelab.metrics.anchored import anchored_rouge
    from rougelab.semantic.encoder import ContextualEncoder

    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))
    text = "the storm hit the coast"
    last_two = ContextualEncoder(tiny_bert, layers=2, cache=False).encode([text])[0]
    assert last_two.tokens == tuple(text.split())
    np.testing.assert_allclose(last_two.vectors, written_out(tiny_bert, text, (2, 3)), rtol=1e-5, atol=1e-6)
    chosen = ContextualEncoder(tiny_bert, layers=(2, 3), cache=False).encode([text])[0]
    np.testing.assert_array_equal(chosen.vectors, last_two.vectors)      # the last two, named
    first = ContextualEncoder(tiny_bert, layers=(1,), cache=False)
    np.testing.assert_allclose(first.encode([text])[0].vectors, written_out(tiny_bert, text, (1,)), rtol=1e-5,
                               atol=1e-6)
    assert "layers:[1]|" in first.signature and "layers:2|" in ContextualEncoder(tiny_bert, layers=2).signature
    with pytest.raises(ValueError, match="layers"):
        ContextualEncoder(tiny_bert, layers=(4,))
    with pytest.raises(ValueError, match="layers"):
        ContextualEncoder(tiny_bert, layers=())

    summaries, references = ["the storm hit the coast ."], [["a storm hit the coast on monday ."]]
    sources = ["officials met on monday . the storm hit the coast . thousands of homes lost power ."]
    by_path = anchored_rouge(summaries, references, sources, encoder=str(tiny_bert), layers=(2, 3), k=2)
    by_object = anchored_rouge(summaries, references, sources, k=2,
                               encoder=ContextualEncoder(tiny_bert, layers=2))
    assert by_path.equals(by_object) and 0 < by_path["ancrouge1_r"].item() <= 1

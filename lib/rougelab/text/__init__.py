"""ROUGE-1.5.5's text layer: tokenizer, Perl-exact stemmer, SMART stopwords, sentence splitting."""
from rougelab.text.porter import porter_stem
from rougelab.text.sentences import split_sentences
from rougelab.text.stemmer import morph_stem, stem_token
from rougelab.text.tokenize import tokenize

__all__ = ["tokenize", "split_sentences", "porter_stem", "morph_stem", "stem_token"]

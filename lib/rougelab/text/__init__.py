"""Text to tokens: ROUGE-1.5.5's tokenizer, Perl-exact stemmer, SMART stopwords and sentence splitting, the
other tokenizers (``tokenizers``), and ``Preprocessing``, the one object every scorer reads text through."""
from rougelab.text.porter import porter_stem
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.sentences import split_sentences
from rougelab.text.stemmer import morph_stem, stem_token
from rougelab.text.tokenize import tokenize

__all__ = ["Preprocessing", "tokenize", "split_sentences", "porter_stem", "morph_stem", "stem_token"]

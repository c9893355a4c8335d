"""Overhead-camera vision: cards on the felt, face up or down, rank and suit, zones.

Parts, in the order a frame goes through them:

* :mod:`.sources`: camera, Pi camera, video or image files; :class:`~.sources.LatestFrameStage`
  drops stale frames so the camera never waits.
* :mod:`.detect`: every card in a frame (:class:`~.detect.Detector`), from corner indices read by
  :mod:`.recogniser` (blob pairs from :mod:`.glyphs`) and from the card-coloured regions.
* :mod:`.calibration`: ArUco markers -> homography -> zones in table millimetres; moved-camera watch.
* :mod:`.tracker`: one ``CardSeen`` when a card lands, one ``CardLeft`` when it goes.
* :mod:`.pipeline`: all of the above on the vision thread.
* :mod:`.render` and :mod:`.faces`: drawn decks and simulated camera frames.
* :mod:`.enrol`: adapting the reader to a venue's own deck; :mod:`.evaluate`: accuracy on real photos;
  :mod:`.photo_samples`: training rows cut from labelled photos (for ``models/make_index_model.py``).
"""

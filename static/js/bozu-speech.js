// Bōzu Mekuri: "Read it aloud" buttons ([data-speak]) read the poet's name and the poem's first
// half with the browser's speech synthesis. The buttons stay hidden unless a Japanese voice
// exists (no speech synthesis, no Japanese voice: no button, nothing broken). htmx swaps the
// board after every move, so buttons are revealed again after each swap.
(function () {
  "use strict";
  if (!("speechSynthesis" in window) || !("SpeechSynthesisUtterance" in window)) return;

  function japaneseVoice() {
    var voices = window.speechSynthesis.getVoices();
    for (var i = 0; i < voices.length; i++) {
      if (voices[i].lang && voices[i].lang.toLowerCase().indexOf("ja") === 0) return voices[i];
    }
    return null;
  }

  function reveal() {
    if (!japaneseVoice()) return;
    var buttons = document.querySelectorAll("button[data-speak]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-speak]");
    if (!button) return;
    var voice = japaneseVoice();
    if (!voice) return;
    var utterance = new SpeechSynthesisUtterance(button.getAttribute("data-speak"));
    utterance.lang = "ja-JP";
    try {
      utterance.voice = voice;
    } catch (error) {
      // not a SpeechSynthesisVoice: the lang alone picks a Japanese voice
    }
    utterance.rate = 0.8;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
  });
  document.addEventListener("htmx:afterSwap", reveal);
  window.speechSynthesis.addEventListener("voiceschanged", reveal);
  document.addEventListener("DOMContentLoaded", reveal);
  reveal();
})();

// "Listen" buttons: say a kana, a word or a name with the browser's speech synthesis.
//
// Progressive enhancement: the buttons ([data-say]) are in the page but hidden by the CSS
// until this script finds a Japanese voice on the device and marks <html> with "can-speak".
// Without speech synthesis or without a Japanese voice they stay hidden: nothing broken to
// click, and a page that hides romaji stays a reading exercise. Clicks are handled on the
// document, so buttons that htmx swaps in (a board after a move) work too.
(function () {
  "use strict";
  if (!("speechSynthesis" in window) || typeof SpeechSynthesisUtterance === "undefined") return;
  var synth = window.speechSynthesis;
  var voice = null;

  function japaneseVoice() {
    var voices = synth.getVoices() || [];
    for (var i = 0; i < voices.length; i++) {
      if (/^ja(-|_|$)/i.test(voices[i].lang || "")) return voices[i];
    }
    return null;
  }

  function findVoice() {
    voice = japaneseVoice();
    document.documentElement.classList.toggle("can-speak", voice !== null);
  }

  findVoice();
  if (typeof synth.addEventListener === "function") {
    synth.addEventListener("voiceschanged", findVoice);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-say]") : null;
    if (!button || !voice) return;
    event.preventDefault();
    var utterance = new SpeechSynthesisUtterance(button.getAttribute("data-say"));
    utterance.lang = voice.lang;
    utterance.voice = voice;
    utterance.rate = 0.8;
    synth.cancel();
    synth.speak(utterance);
  });
})();

// "Listen" buttons: say a kana, a word or a name with the browser's speech synthesis.
//
// The buttons ([data-say]) are in the page but hidden by the CSS until this script runs
// (without JavaScript nothing could speak). With a Japanese voice on the device, <html> gets
// "can-speak" and a button reads its text aloud. Without one (no speech synthesis, or no
// Japanese voice among the device's voices, which some browsers list only after a moment),
// <html> gets "no-voice": the buttons stay, marked as silent, and a press says why, how to add
// a voice and what still works, by the button, in a live region (#listen-help, its text from
// the page's <template id="listen-help-text">, translated). Clicks are handled on the
// document, so buttons that htmx swaps in (a board after a move) work too.
(function () {
  "use strict";
  var root = document.documentElement;
  var synth = "speechSynthesis" in window && typeof SpeechSynthesisUtterance !== "undefined"
    ? window.speechSynthesis : null;
  var VOICES_GRACE_MS = 1500; // voices can arrive after the page (Chrome: voiceschanged)
  var voice = null;
  var settled = false;

  function japaneseVoice() {
    var voices = (synth && synth.getVoices()) || [];
    for (var i = 0; i < voices.length; i++) {
      if (/^ja(-|_|$)/i.test(voices[i].lang || "")) return voices[i];
    }
    return null;
  }

  function findVoice() {
    voice = japaneseVoice();
    root.classList.toggle("can-speak", voice !== null);
    root.classList.toggle("no-voice", voice === null && settled);
  }

  root.classList.add("listen-on");
  findVoice();
  if (synth && typeof synth.addEventListener === "function") {
    synth.addEventListener("voiceschanged", findVoice);
  }
  window.setTimeout(function () {
    settled = true;
    findVoice();
  }, voice ? 0 : VOICES_GRACE_MS);

  function explain(button) {
    var region = document.getElementById("listen-help");
    var text = document.getElementById("listen-help-text");
    if (!region || !text) return;
    region.textContent = "";
    button.insertAdjacentElement("afterend", region);
    region.hidden = false;
    // filled after the move, so that screen readers hear a change in the live region
    window.setTimeout(function () {
      region.textContent = text.content.textContent.trim();
    }, 50);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-say]") : null;
    if (!button) return;
    event.preventDefault();
    if (!voice) findVoice();
    if (!voice) {
      explain(button);
      return;
    }
    var utterance = new SpeechSynthesisUtterance(button.getAttribute("data-say"));
    utterance.lang = voice.lang;
    utterance.voice = voice;
    utterance.rate = 0.8;
    synth.cancel();
    synth.speak(utterance);
  });
})();

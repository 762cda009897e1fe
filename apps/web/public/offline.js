// The offline page's texts in the user's language (the app's choice in localStorage,
// else the browser's), and its way back: a retry button and a reload once the network returns.
(function () {
  var TEXTS = {
    'zh-CN': { title: '网络已断开', text: 'LiftLink 需要网络才能显示电梯的实时状态。网络恢复后页面会自动重新加载。', retry: '重试' },
    'en-US': { title: 'You are offline', text: 'LiftLink needs the network to show your lifts live. The page reloads by itself when the connection returns.', retry: 'Try again' },
    'ru-RU': { title: 'Нет подключения к сети', text: 'LiftLink нужна сеть, чтобы показывать подъёмники в реальном времени. Страница перезагрузится сама, когда связь вернётся.', retry: 'Повторить' },
  };
  function pick() {
    var stored = null;
    try {
      stored = localStorage.getItem('liftlink.language');
    } catch (e) {
      stored = null;
    }
    if (stored && TEXTS[stored]) return stored;
    var browser = (navigator.language || '').toLowerCase();
    if (browser.indexOf('en') === 0) return 'en-US';
    if (browser.indexOf('ru') === 0) return 'ru-RU';
    return 'zh-CN';
  }
  var language = pick();
  var t = TEXTS[language];
  document.documentElement.lang = language;
  document.getElementById('title').textContent = t.title;
  document.getElementById('text').textContent = t.text;
  document.getElementById('retry').textContent = t.retry;
  document.getElementById('retry').addEventListener('click', function () {
    location.reload();
  });
  window.addEventListener('online', function () {
    location.reload();
  });
})();
